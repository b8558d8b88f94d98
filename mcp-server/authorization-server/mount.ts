import type { FastifyInstance, HTTPMethods } from "fastify";
import {
  AUTHORIZATION_SERVER_ROUTES,
  createAuthorizationServer,
  OAUTH_SWEEP_INTERVAL_MS,
  registrationRefusal,
  requestSource,
  sweepOauthRecords,
  type Core,
} from "../../core/index.js";
import { requestLog } from "../../http-face/request-log.js";
import { registerInteractionRoutes } from "./interactions.js";
import { pageHeaders } from "./page-headers.js";
import { loadPageStyle } from "./page-style.js";
import { errorPage } from "./pages.js";

const DISCOVERY = "/.well-known/openid-configuration";

// The built-in authorization server on the MCP server's own origin (its issuer is MCP_PUBLIC_URL): oidc-provider
// answers its endpoints, the sign-in and consent pages are ours. Its metadata is served at both well-known paths
// of the issuer, RFC 8414's and OpenID Connect's, which MCP clients try in turn.
// oidc-provider builds the URLs it publishes (metadata, redirects to its own steps) from the request's Host and
// forwarded headers; each request is handed to it as addressed to MCP_PUBLIC_URL, so a forged Host or
// X-Forwarded-Host cannot make it name another server, and it marks its cookies Secure when that URL is HTTPS.
export async function mountAuthorizationServer(app: FastifyInstance, core: Core): Promise<void> {
  const style = loadPageStyle();
  const provider = await createAuthorizationServer(core.config, core.db, {
    renderError(ctx, out) {
      ctx.set(pageHeaders(style));
      const message = out.error_description ?? out.error;
      ctx.body = errorPage(style, "This authorization cannot go on", message);
    },
  });
  // What oidc-provider answers 500 for is ours to look into: in the process's log, not Koa's stderr.
  provider.on("server_error", (_ctx, error) => core.log.error({ err: error }, "oauth server error"));
  const serve = provider.callback();
  const publicUrl = new URL(core.config.mcp.publicUrl);
  const forward = (url: string, methods: HTTPMethods[], rewrite?: string) =>
    app.route({
      method: methods,
      url,
      // oidc-provider reads the request itself: the reply is taken over before Fastify would parse a body.
      onRequest: async (request, reply) => {
        reply.hijack();
        reply.raw.setHeader("x-request-id", request.id);
        if (rewrite) request.raw.url = `${rewrite}${request.raw.url?.slice(url.length) ?? ""}`;
        const headers = request.raw.headers;
        headers.host = publicUrl.host;
        headers["x-forwarded-proto"] = publicUrl.protocol.slice(0, -1);
        delete headers["x-forwarded-host"];
        if (url === AUTHORIZATION_SERVER_ROUTES.registration && request.method === "POST") {
          const refusal = await registrationRefusal(core.db, core.config, requestSource(request.ip));
          if (refusal) {
            requestLog(request).warn({ address: request.ip, status: refusal.status }, "oauth registration refused");
            reply.raw.writeHead(refusal.status, { "content-type": "application/json", "cache-control": "no-store", "retry-after": String(refusal.retryAfterSeconds) });
            return void reply.raw.end(JSON.stringify(refusal.body));
          }
        }
        await serve(request.raw, reply.raw);
      },
      handler: async () => undefined,
    });
  forward(DISCOVERY, ["GET", "OPTIONS"]);
  forward("/.well-known/oauth-authorization-server", ["GET", "OPTIONS"], DISCOVERY);
  forward(AUTHORIZATION_SERVER_ROUTES.authorization, ["GET", "POST"]);
  forward(`${AUTHORIZATION_SERVER_ROUTES.authorization}/:uid`, ["GET"]);
  for (const route of [AUTHORIZATION_SERVER_ROUTES.token, AUTHORIZATION_SERVER_ROUTES.registration, AUTHORIZATION_SERVER_ROUTES.revocation]) {
    forward(route, ["POST", "OPTIONS"]);
  }
  registerInteractionRoutes(app, core, provider, style);
  const sweep = setInterval(() => {
    sweepOauthRecords(core.db, core.config, core.clock()).catch((error: unknown) => core.log.warn({ err: error }, "oauth records not swept"));
  }, OAUTH_SWEEP_INTERVAL_MS);
  sweep.unref();
  app.addHook("onClose", async () => clearInterval(sweep));
}
