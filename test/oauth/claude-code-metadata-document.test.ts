import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listGrants } from "../../core/oauth/server/grants.js";
import { openBrowser, type Browser } from "../console/browser.js";
import { freePort, startMcpHarness, type McpHarness } from "../mcp/support.js";
import { spawnEntry, type SpawnedEntry } from "../support/service-process.js";
import { eventually } from "../support/wait.js";
import { claudeCode, installClaudeCode, type ClaudeCode } from "./claude-code.js";
import { signInAsPerson } from "./host.js";
import { startModelStandIn, type ModelStandIn } from "./model-stand-in.js";
import { makeTestCa, type TestCa } from "./test-ca.js";

// Claude Code as it meets the service by default: the authorization server offers client ID metadata documents,
// and Claude Code names itself by the URL of its own. Its document is on claude.ai, out of reach here, so the test
// serves one like it over HTTPS on loopback (a certificate of a CA made for the test, trusted through
// NODE_EXTRA_CA_CERTS by the MCP server's process, run as a deployment runs it) and points Claude Code at it with
// MCP_OAUTH_CLIENT_METADATA_URL, its setting for that URL. The MCP server runs with OUTBOUND_ALLOW_LOOPBACK_HTTP,
// the development switch under which its fetches may reach this machine.

vi.setConfig({ testTimeout: 60_000 });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const SERVER_NAME = "media-tasks";
const CREATE_TOOL = `mcp__${SERVER_NAME}__svc_speech_synthesize`;
const DOCUMENT_PATH = "/oauth/claude-code-client-metadata";

let m: McpHarness;
let ca: TestCa;
let documentServer: Server;
let documentUrl: string;
let documentFetches = 0;
let mcp: SpawnedEntry;
let mcpUrl: string;
let browser: Browser;
let claude: ClaudeCode;
let model: ModelStandIn;

// What Claude Code's document on claude.ai says of it, at this test's URL: a public client whose loopback redirect
// URI takes any port.
function clientMetadataDocument(url: string) {
  return {
    client_id: url,
    client_name: "Claude Code",
    redirect_uris: ["http://localhost/callback"],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
}

beforeAll(async () => {
  const binary = installClaudeCode();
  [m, ca, browser, model] = await Promise.all([
    startMcpHarness(),
    makeTestCa(),
    openBrowser(),
    startModelStandIn({
      matches: (name) => name === CREATE_TOOL,
      input: { client_request_id: randomUUID(), voice: "en_female_aria", input: "Created by Claude Code, known by its metadata document." },
    }),
  ]);
  documentServer = createServer({ key: ca.key, cert: ca.cert }, (request, response) => {
    if (request.method !== "GET" || request.url !== DOCUMENT_PATH) return void response.writeHead(404).end();
    documentFetches += 1;
    response.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=300" }).end(JSON.stringify(clientMetadataDocument(documentUrl)));
  });
  await new Promise<void>((resolve) => documentServer.listen(0, "127.0.0.1", () => resolve()));
  documentUrl = `https://127.0.0.1:${(documentServer.address() as AddressInfo).port}${DOCUMENT_PATH}`;

  const port = await freePort();
  mcpUrl = `http://127.0.0.1:${port}/mcp`;
  mcp = spawnEntry(
    "mcp-server/main.ts",
    m.childEnv({ MCP_PORT: String(port), OAUTH_SERVER: "true", OUTBOUND_ALLOW_LOOPBACK_HTTP: "true", NODE_EXTRA_CA_CERTS: ca.caFile, LOG_LEVEL: "warn" }),
  );
  await eventually(
    () => `the MCP server to answer; its output:\n${mcp.output()}`,
    30_000,
    async () => ((await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.ok ? true : undefined),
  );
  claude = await claudeCode(binary, { MCP_OAUTH_CLIENT_METADATA_URL: documentUrl, NODE_EXTRA_CA_CERTS: ca.caFile });
}, 180_000);
afterAll(async () => {
  await mcp?.kill("SIGTERM");
  await browser?.close();
  await model?.close();
  await new Promise((resolve) => documentServer?.close(resolve));
  await m?.close();
  if (claude) await rm(claude.home, { recursive: true, force: true });
  if (ca) await rm(ca.dir, { recursive: true, force: true });
});

describe("Claude Code known by its client ID metadata document", () => {
  it("signs in from the MCP URL alone with its document's URL as client id, lists the tools and creates a task", async () => {
    const issuer = new URL(mcpUrl).origin;
    const metadata = (await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json()) as Any;
    expect(metadata.client_id_metadata_document_supported).toBe(true);

    const added = await claude.run(["mcp", "add", "--transport", "http", SERVER_NAME, mcpUrl]);
    expect(added.code, added.output).toBe(0);
    const login = claude.runInTerminal(["mcp", "login", SERVER_NAME]);
    const authorizationUrl = new URL(await claude.nextOpenedUrl(30_000).catch((error: Error) => Promise.reject(new Error(`${error.message}\n${login.output()}`))));
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${issuer}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get("client_id")).toBe(documentUrl);
    const redirectUri = authorizationUrl.searchParams.get("redirect_uri") as string;
    expect(redirectUri).toMatch(/^http:\/\/localhost:\d+\/callback$/);

    const answer = await signInAsPerson(browser.page, authorizationUrl, m.h.apiKey, redirectUri);
    expect(answer.get("code")).toBeTruthy();
    expect(documentFetches).toBeGreaterThan(0);
    const loggedIn = await login.exited;
    expect(loggedIn.code, loggedIn.output).toBe(0);
    expect(loggedIn.output).toContain(`Authenticated with "${SERVER_NAME}"`);
    const grants = await listGrants(m.h.core.db, m.h.tenantId);
    expect(grants.map((grant) => grant.clientId)).toEqual([documentUrl]);

    const listed = await claude.run(["mcp", "list"]);
    expect(listed.output).toMatch(new RegExp(`${SERVER_NAME}: ${mcpUrl} \\(HTTP\\) - ✔ Connected`));
    const prompted = await claude.prompt("Read this sentence aloud.", model.baseUrl, CREATE_TOOL);
    expect(prompted.code, prompted.output).toBe(0);
    expect(model.offeredTools).toEqual(expect.arrayContaining([CREATE_TOOL, `mcp__${SERVER_NAME}__svc_tasks_get`]));
    expect(model.toolResult?.isError, JSON.stringify(model.toolResult)).toBe(false);
    const created = JSON.parse(String(model.toolResult?.content)) as Any;
    const task = await fetch(`${m.h.baseUrl}/v1/tasks/${created.task_id}`, { headers: { authorization: `Bearer ${m.h.apiKey}` } });
    expect(task.status).toBe(200);
  });
});
