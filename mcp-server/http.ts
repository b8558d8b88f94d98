import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { hostHeaderValidation, originValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, localhostAllowedHostnames, type AuthInfo } from "@modelcontextprotocol/server";
import {
  authenticateBearer,
  createAccessTokenVerifier,
  devJwks,
  errorBody,
  mcpResourceUrl,
  protectedResourceMetadata,
  type Core,
  type Grant,
} from "../core/index.js";
import { notFound, refuseRequest, sendJson } from "./http-auth.js";
import { requestIdFrom } from "./request-id.js";
import { maxMessageBytes } from "./message-size.js";
import { createMcpServer } from "./server.js";
import { buildToolSet } from "./tools/tool-set.js";

export interface McpHttpServer {
  // The MCP endpoint, e.g. http://127.0.0.1:8081/mcp.
  url: string;
  close(): Promise<void>;
}

interface VerifiedRequest {
  grant: Grant;
  requestId: string;
}

const METADATA_PATHS = new Set(["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]);
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
      return createMcpServer(core, tools, { grant: async () => verified.grant, requestId: () => verified.requestId });
    },
    { maxRequestBodySize: bodyLimit, onerror: (error) => console.error("mcp:", error) },
  );
  const serveMcp = toNodeHandler(handler, { maxRequestBodySize: bodyLimit, onerror: (error) => console.error("mcp:", error) });
  // DNS-rebinding protection: only requests addressed to this server's own names reach /mcp.
  const allowed = [...localhostAllowedHostnames(), new URL(config.mcp.publicUrl).hostname];
  const validHost = hostHeaderValidation(allowed);
  const validOrigin = originValidation(allowed);

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const requestId = requestIdFrom(request.headers["x-request-id"]);
    response.setHeader("x-request-id", requestId);
    if (request.method === "GET" && path === "/healthz") return sendJson(response, 200, { ok: true });
    if (request.method === "GET" && METADATA_PATHS.has(path)) return sendJson(response, 200, protectedResourceMetadata(config), PUBLIC_CORS);
    if (request.method === "GET" && path === "/.well-known/jwks.json" && config.oauth.devSigningKey) {
      return sendJson(response, 200, devJwks(config.oauth.devSigningKey), PUBLIC_CORS);
    }
    if (path !== "/mcp") return notFound(response, path, requestId);
    if (!validHost(request, response) || !validOrigin(request, response)) return;
    let grant: Grant;
    try {
      grant = await authenticateBearer(core, verifier, request.headers.authorization);
    } catch (error) {
      return refuseRequest(config, request, response, error, requestId);
    }
    const auth: AuthInfo = {
      // Handlers act on the verified grant; the raw credential is not passed along.
      token: "",
      clientId: grant.subject,
      scopes: [...grant.scopes],
      ...(grant.expiresAt !== null ? { expiresAt: grant.expiresAt } : {}),
      resource: new URL(mcpResourceUrl(config)),
      extra: { grant, requestId } satisfies VerifiedRequest,
    };
    // toNodeHandler hands `req.auth` to the handler as its authInfo.
    Object.assign(request, { auth });
    await serveMcp(request, response);
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      console.error("mcp: request failed:", error);
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
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
