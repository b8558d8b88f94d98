import type { ServerResponse } from "node:http";
import { hostHeaderValidation, originValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, localhostAllowedHostnames, type AuthInfo } from "@modelcontextprotocol/server";
import {
  authenticateBearer,
  checkReadiness,
  createAccessTokenVerifier,
  enforceRateLimit,
  errorBody,
  mcpResourceUrl,
  protectedResourceMetadata,
  publicJwks,
  type Core,
  type Grant,
} from "../core/index.js";
import { createHttpFace } from "../http-face/face.js";
import { bindRequestLog, requestLog } from "../http-face/request-log.js";
import { mountAuthorizationServer } from "./authorization-server/mount.js";
import { refuseRequest } from "./http-auth.js";
import { maxMessageBytes } from "./message-size.js";
import { readElidedMessage } from "./oversized-message.js";
import { insufficientScope, readMessage, refuseInsufficientScope, refuseUnparseable } from "./scope-challenge.js";
import { createMcpServer } from "./server.js";
import { primeEventStream } from "./sse-priming.js";
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
// Discovery documents are public and read by browser-based clients too.
const PUBLIC_CORS = { "access-control-allow-origin": "*" };

// A body past the message limit is still read, up to this many times the limit, to answer it properly; past
// that, or when it is not a JSON message, it is refused at the HTTP level.
const OVERSIZED_READ_FACTOR = 4;

// The refusal of a body too large or too malformed to answer as a message: HTTP 413 with a JSON-RPC error (its
// id unknown) carrying REST's media_too_large, and the connection closed.
function refuseOversized(response: ServerResponse, limit: number, requestId: string): void {
  const message = `The request body exceeds the ${limit} bytes an MCP message may hold here; send large media by HTTPS URL.`;
  const error = errorBody("media_too_large", message, { requestId, details: { max_message_bytes: limit } });
  response.writeHead(413, { "content-type": "application/json", connection: "close" });
  response.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message, data: { error } } }));
}

// Streamable HTTP at /mcp for both protocol eras from one endpoint (createMcpHandler: 2026-07-28 per request,
// 2025-11-25 through its stateless fallback), behind Host/Origin checks and Bearer authentication; beside it the
// RFC 9728 metadata, the service's own issuer's JWKS and, when on, the built-in authorization server.
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
  const primed = { fetch: async (request: Request, options?: Parameters<typeof handler.fetch>[1]) => primeEventStream(request, await handler.fetch(request, options)) };
  const serveMcp = toNodeHandler(primed, { maxRequestBodySize: bodyLimit, onerror: (error) => core.log.error({ err: error }, "mcp handler error") });
  // DNS-rebinding protection: only requests addressed to this server's own names reach /mcp.
  const allowed = [...localhostAllowedHostnames(), new URL(config.mcp.publicUrl).hostname];
  const validHost = hostHeaderValidation(allowed);
  const validOrigin = originValidation(allowed);

  const app = createHttpFace({
    log: core.log,
    metrics: core.metrics,
    readiness: () => checkReadiness(core, { workers: true }),
    // Behind the proxies named, a request's address (the authorization server's per-source bounds) is the client's.
    ...(config.mcp.trustedProxies.length > 0 ? { server: { trustProxy: config.mcp.trustedProxies } } : {}),
  });
  for (const path of METADATA_PATHS) app.get(path, async (_request, reply) => reply.headers(PUBLIC_CORS).send(protectedResourceMetadata(config)));
  const signingKey = config.oauth.signingKey;
  if (signingKey) app.get("/.well-known/jwks.json", async (_request, reply) => reply.headers(PUBLIC_CORS).send(publicJwks(signingKey)));
  if (config.oauth.server) await mountAuthorizationServer(app, core);
  app.setNotFoundHandler(async (request, reply) => {
    const path = new URL(request.url, "http://localhost").pathname;
    return reply.status(404).send({ error: errorBody("not_found", `No route ${path} here; the MCP endpoint is /mcp.`, { requestId: request.id }) });
  });
  for (const [path, pathStyle] of MCP_PATHS) {
    // The SDK's handler reads the message itself: the reply is taken over before Fastify would parse a body.
    app.all(path, {
      onRequest: async (request, reply) => {
        reply.hijack();
        const response = reply.raw;
        response.setHeader("x-request-id", request.id);
        if (!validHost(request.raw, response) || !validOrigin(request.raw, response)) return;
        let grant: Grant;
        try {
          grant = await authenticateBearer(core, verifier, request.headers.authorization);
          // REST's budgets: each HTTP request to /mcp counts once against the credential and its tenant.
          const limits = await enforceRateLimit(core, { tenantId: grant.tenantId, credential: { kind: grant.credential, id: grant.subject } });
          for (const [name, value] of Object.entries(limits)) response.setHeader(name, value);
        } catch (error) {
          return refuseRequest(config, request.raw, response, error, request.id);
        }
        bindRequestLog(request, { tenant_id: grant.tenantId });
        const auth: AuthInfo = {
          // Handlers act on the verified grant; the raw credential is not passed along.
          token: "",
          clientId: grant.subject,
          scopes: [...grant.scopes],
          ...(grant.expiresAt !== null ? { expiresAt: grant.expiresAt } : {}),
          resource: new URL(mcpResourceUrl(config)),
          extra: { grant, requestId: request.id, toolNames: pathStyle ?? config.mcp.toolNames } satisfies VerifiedRequest,
        };
        // toNodeHandler hands `req.auth` to the handler as its authInfo.
        Object.assign(request.raw, { auth });
        // A declared body past the limit is read here, its long strings elided, and handed on as the message.
        let parsedBody: unknown;
        const declared = Number(request.headers["content-length"]);
        if (declared > bodyLimit) {
          const readMaxBytes = OVERSIZED_READ_FACTOR * bodyLimit;
          if (declared > readMaxBytes) return refuseOversized(response, bodyLimit, request.id);
          const elided = await readElidedMessage(request.raw, { keptMaxBytes: bodyLimit, readMaxBytes }).catch((error: unknown) => {
            // The client went away mid-body: there is no one to answer.
            requestLog(request).warn({ err: error }, "mcp request body not read");
            return null;
          });
          if (elided === null) return void response.destroy();
          if ("refused" in elided) return refuseOversized(response, bodyLimit, request.id);
          parsedBody = elided.message;
        } else if (config.mcp.scopeChallenge && request.method === "POST") {
          const read = await readMessage(request.raw, bodyLimit).catch((error: unknown) => {
            requestLog(request).warn({ err: error }, "mcp request body not read");
            return null;
          });
          if (read === null) return void response.destroy();
          if ("refusal" in read) return read.refusal === "too_large" ? refuseOversized(response, bodyLimit, request.id) : refuseUnparseable(response);
          const lacking = insufficientScope(read.message, tools, grant);
          if (lacking) return refuseInsufficientScope(config, response, lacking, request.id);
          parsedBody = read.message;
        }
        await serveMcp(request.raw, response, parsedBody).catch((error: unknown) => {
          requestLog(request).error({ err: error }, "mcp request failed");
          if (!response.headersSent) {
            response.writeHead(500, { "content-type": "application/json" });
            response.end(JSON.stringify({ error: errorBody("internal_error", "Something went wrong on our side; retry.", { requestId: request.id }) }));
          } else response.end();
        });
      },
      handler: async () => undefined,
    });
  }
  await app.listen({ port: config.mcp.port, host: config.mcp.host });
  return {
    url: mcpResourceUrl(config),
    async drain() {
      await app.drain();
      await handler.close();
    },
    async close() {
      await handler.close();
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
