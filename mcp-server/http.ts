import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { hostHeaderValidation, originValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, localhostAllowedHostnames, type AuthInfo } from "@modelcontextprotocol/server";
import {
  authenticateBearer,
  checkReadiness,
  closingIdleConnections,
  createAccessTokenVerifier,
  devJwks,
  enforceRateLimit,
  errorBody,
  mcpResourceUrl,
  protectedResourceMetadata,
  PROBE_PATHS,
  UNMATCHED_ROUTE,
  type Core,
  type Grant,
  type Logger,
} from "../core/index.js";
import { notFound, refuseRequest, sendJson } from "./http-auth.js";
import { requestIdFrom } from "./request-id.js";
import { maxMessageBytes } from "./message-size.js";
import { createMcpServer } from "./server.js";
import { buildToolSet } from "./tools/tool-set.js";
import { CONNECTION_STYLES, type ToolNameStyle } from "./tools/tool-names.js";

export interface McpHttpServer {
  // The MCP endpoint, e.g. http://127.0.0.1:8081/mcp.
  url: string;
  // Stops accepting connections and resolves once the requests in flight are answered; meanwhile readiness and
  // any request on a kept-alive connection answer 503.
  drain(): Promise<void>;
  // Closes at once, cutting open connections.
  close(): Promise<void>;
}

interface VerifiedRequest {
  grant: Grant;
  requestId: string;
  toolNames: ToolNameStyle;
}

// /mcp names tools as MCP_TOOL_NAMES says; /mcp/dotted and /mcp/underscore choose per connection.
const MCP_PATHS = new Map<string, ToolNameStyle | null>([["/mcp", null], ...CONNECTION_STYLES.map((style) => [`/mcp/${style}`, style] as const)]);
const METADATA_PATHS = new Set([
  "/.well-known/oauth-protected-resource",
  ...[...MCP_PATHS.keys()].map((path) => `/.well-known/oauth-protected-resource${path}`),
]);
// The paths this server answers, as metric labels; anything else is counted as unmatched.
const ROUTES = new Set([...MCP_PATHS.keys(), "/healthz", "/readyz", "/metrics", "/.well-known/jwks.json", ...METADATA_PATHS]);
// Discovery documents are public and read by browser-based clients too.
const PUBLIC_CORS = { "access-control-allow-origin": "*" };

// Streamable HTTP at /mcp for both protocol eras from one endpoint (createMcpHandler: 2026-07-28 per request,
// 2025-11-25 through its stateless fallback), behind Host/Origin checks and Bearer authentication; beside it the
// RFC 9728 metadata and the development issuer's JWKS.
export async function startMcpHttpServer(core: Core): Promise<McpHttpServer> {
  const config = core.config;
  const verifier = createAccessTokenVerifier(config);
  const tools = buildToolSet(config);
  const bodyLimit = maxMessageBytes(config);
  const handler = createMcpHandler(
    (context) => {
      const verified = context.authInfo?.extra as VerifiedRequest | undefined;
      if (!verified) throw new Error("MCP request reached the handler without authentication");
      return createMcpServer(core, tools, {
        grant: async () => verified.grant,
        requestId: () => verified.requestId,
        toolNames: verified.toolNames,
      });
    },
    { maxRequestBodySize: bodyLimit, onerror: (error) => core.log.error({ err: error }, "mcp handler error") },
  );
  const serveMcp = toNodeHandler(handler, { maxRequestBodySize: bodyLimit, onerror: (error) => core.log.error({ err: error }, "mcp handler error") });
  // DNS-rebinding protection: only requests addressed to this server's own names reach /mcp.
  const allowed = [...localhostAllowedHostnames(), new URL(config.mcp.publicUrl).hostname];
  const validHost = hostHeaderValidation(allowed);
  const validOrigin = originValidation(allowed);

  let draining = false;

  async function route(request: IncomingMessage, response: ServerResponse, path: string, requestId: string, log: Logger): Promise<void> {
    response.setHeader("x-request-id", requestId);
    if (draining) {
      // Answered like a load balancer would: this replica is going away, another one will take the retry.
      return sendJson(response, 503, { error: errorBody("internal_error", "This replica is shutting down; retry.", { requestId }) }, {
        connection: "close",
        "retry-after": "1",
      });
    }
    if (request.method === "GET" && path === "/healthz") return sendJson(response, 200, { ok: true });
    if (request.method === "GET" && path === "/readyz") {
      const readiness = await checkReadiness(core, { workers: true });
      return sendJson(response, readiness.ready ? 200 : 503, readiness);
    }
    if (request.method === "GET" && path === "/metrics") {
      response.writeHead(200, { "content-type": core.metrics.registry.contentType }).end(await core.metrics.registry.metrics());
      return;
    }
    if (request.method === "GET" && METADATA_PATHS.has(path)) return sendJson(response, 200, protectedResourceMetadata(config), PUBLIC_CORS);
    if (request.method === "GET" && path === "/.well-known/jwks.json" && config.oauth.devSigningKey) {
      return sendJson(response, 200, devJwks(config.oauth.devSigningKey), PUBLIC_CORS);
    }
    const pathStyle = MCP_PATHS.get(path);
    if (pathStyle === undefined) return notFound(response, path, requestId);
    if (!validHost(request, response) || !validOrigin(request, response)) return;
    let grant: Grant;
    try {
      grant = await authenticateBearer(core, verifier, request.headers.authorization);
      // REST's budgets: each HTTP request to /mcp counts once against the credential and its tenant.
      const limits = await enforceRateLimit(core, { tenantId: grant.tenantId, credential: { kind: grant.credential, id: grant.subject } });
      for (const [name, value] of Object.entries(limits)) response.setHeader(name, value);
    } catch (error) {
      return refuseRequest(config, request, response, error, requestId);
    }
    log.setBindings({ tenant_id: grant.tenantId });
    const auth: AuthInfo = {
      // Handlers act on the verified grant; the raw credential is not passed along.
      token: "",
      clientId: grant.subject,
      scopes: [...grant.scopes],
      ...(grant.expiresAt !== null ? { expiresAt: grant.expiresAt } : {}),
      resource: new URL(mcpResourceUrl(config)),
      extra: { grant, requestId, toolNames: pathStyle ?? config.mcp.toolNames } satisfies VerifiedRequest,
    };
    // toNodeHandler hands `req.auth` to the handler as its authInfo.
    Object.assign(request, { auth });
    await serveMcp(request, response);
  }

  const server = createServer((request, response) => {
    const started = process.hrtime.bigint();
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const requestId = requestIdFrom(request.headers["x-request-id"]);
    const log = core.log.child({ request_id: requestId });
    response.once("close", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      core.metrics.observe(ROUTES.has(path) ? path : UNMATCHED_ROUTE, request.method ?? "GET", response.statusCode, seconds);
      if (!PROBE_PATHS.has(path)) {
        log.info(
          { req: { method: request.method, url: request.url }, res: { statusCode: response.statusCode }, responseTime: seconds * 1000 },
          "request completed",
        );
      }
    });
    route(request, response, path, requestId, log).catch((error: unknown) => {
      log.error({ err: error }, "mcp request failed");
      if (!response.headersSent) sendJson(response, 500, { error: errorBody("internal_error", "Something went wrong on our side; retry.") });
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.mcp.port, config.mcp.host, () => resolve());
  });
  return {
    url: mcpResourceUrl(config),
    async drain() {
      draining = true;
      await closingIdleConnections(server, new Promise<void>((resolve) => server.close(() => resolve())));
      await handler.close();
    },
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
