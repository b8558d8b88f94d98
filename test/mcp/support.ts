import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { generateSigningKey, mintDevAccessToken, type Scope, type SigningKey, SCOPES } from "../../core/index.js";
import { providerEnvNames, type VendorFamily } from "../../core/config.js";
import { startMcpHttpServer, type McpHttpServer } from "../../mcp-server/http.js";
import { freePort, startHarness, TEST_CALLBACK_SECRET_KEY, type Harness, type HarnessOptions } from "../support/harness.js";
export { freePort };

export const PROTOCOLS = ["2025-11-25", "2026-07-28"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export interface McpHarness {
  h: Harness;
  server: McpHttpServer;
  // The MCP endpoint, also the audience of access tokens.
  url: string;
  devKey: SigningKey;
  connect(options?: { protocol?: Protocol; credential?: string; url?: string }): Promise<Client>;
  token(options?: { scopes?: readonly Scope[]; tenantId?: string; audience?: string; expiresInSeconds?: number; issuer?: string }): Promise<string>;
  // Environment for a child process (`svc mcp`, `svc token`) acting on the same database, artifacts and vendors.
  childEnv(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}


// The harness (database, emulator, REST server, worker) plus the MCP HTTP server in-process on a real port, with
// the service's own issuer configured so tests mint real access tokens.
export async function startMcpHarness(options: HarnessOptions = {}): Promise<McpHarness> {
  const devKey = await generateSigningKey();
  const port = await freePort();
  const h = await startHarness({
    worker: true,
    ...options,
    env: { MCP_PORT: String(port), OAUTH_SIGNING_KEY: JSON.stringify(devKey), ...options.env },
  });
  const server = await startMcpHttpServer(h.core);
  const clients: Client[] = [];
  const harness: McpHarness = {
    h,
    server,
    url: server.url,
    devKey,
    async connect({ protocol = "2025-11-25", credential = h.apiKey, url = server.url } = {}) {
      const client = new Client(
        { name: "mcp-test", version: "1.0.0" },
        protocol === "2025-11-25" ? {} : { versionNegotiation: { mode: { pin: protocol } } },
      );
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${credential}` } },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    token({ scopes = SCOPES, tenantId = h.tenantId, audience = server.url, expiresInSeconds = 600, issuer = h.core.config.mcp.publicUrl } = {}) {
      return mintDevAccessToken(devKey, { issuer, audience, tenantId, subject: "test", scopes, expiresInSeconds, now: new Date() });
    },
    childEnv(extra = {}) {
      const vendors = Object.entries(h.core.config.providers).flatMap(([family, endpoint]) => {
        const names = providerEnvNames(family as VendorFamily);
        return [
          [names.baseUrl, endpoint.baseUrl],
          [names.apiKey, endpoint.apiKey],
        ];
      });
      return {
        PATH: process.env.PATH ?? "",
        DATABASE_URL: h.databaseUrl,
        ARTIFACT_URL_SECRET: h.core.config.artifactUrlSecret,
        ARTIFACT_DIR: h.core.config.artifactDir,
        CALLBACK_SECRET_ENCRYPTION_KEY: TEST_CALLBACK_SECRET_KEY,
        PUBLIC_BASE_URL: h.baseUrl,
        MCP_PORT: String(port),
        OAUTH_SIGNING_KEY: JSON.stringify(devKey),
        LOG_LEVEL: "silent",
        ...Object.fromEntries(vendors),
        ...extra,
      };
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await server.close();
      await h.close();
    },
  };
  return harness;
}

// The structured error of a failed tool call.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function toolError(result: any) {
  if (result.isError !== true) throw new Error(`expected a tool error, got ${JSON.stringify(result)}`);
  return result.structuredContent.error;
}

// A JSON-RPC message POSTed as written, for what the SDK clients will not send (arguments nested thousands deep, a
// key named __proto__, a body past the size limit), with the headers a 2025-11-25 client sends.
export function postRawMcp(m: Pick<McpHarness, "h" | "url">, body: string): Promise<Response> {
  return fetch(m.url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${m.h.apiKey}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    body,
  });
}

// The JSON-RPC message of an answer read as text: a JSON body, or the first event of an event stream that carries
// data (2025-11-25 streams open with a priming event whose data is empty).
export function answerOf(text: string): ReturnType<typeof JSON.parse> {
  if (text.startsWith("{")) return JSON.parse(text);
  const data = text.split("\n").find((line) => line.startsWith("data:") && line.slice(5).trim() !== "");
  return data === undefined ? null : JSON.parse(data.slice(5));
}
