import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { oauthRecords } from "../../core/db/schema/index.js";
import { listClients } from "../../core/oauth/server/grants.js";
import { openBrowser, type Browser } from "../console/browser.js";
import { startMcpHarness, type McpHarness } from "../mcp/support.js";
import { claudeCode, installClaudeCode, type ClaudeCode } from "./claude-code.js";
import { signInAsPerson } from "./host.js";
import { startModelStandIn, type ModelStandIn } from "./model-stand-in.js";

// Claude Code (from npm) against the built-in authorization server, the way a person connects it: `claude mcp add
// --transport http` with the MCP URL and no header, `claude mcp login`, the sign-in and consent in the browser,
// then a prompt whose model calls the create tool over the connection the token opened.
//
// The server runs with OAUTH_CLIENT_METADATA_DOCUMENTS=false: Claude Code names itself by a metadata document on
// claude.ai when a server offers that, which this machine cannot reach; without the offer it registers (RFC 7591),
// as it does with any server that does not fetch documents.

vi.setConfig({ testTimeout: 60_000 });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const SERVER_NAME = "media-tasks";
const CREATE_TOOL = `mcp__${SERVER_NAME}__svc_speech_synthesize`;
const createArguments = { client_request_id: randomUUID(), voice: "en_female_aria", input: "Created by Claude Code with its OAuth token." };

let m: McpHarness;
let browser: Browser;
let claude: ClaudeCode;
let model: ModelStandIn;

beforeAll(async () => {
  // The first time on a machine this fetches the package from npm (seconds on a good link), later nothing.
  const binary = installClaudeCode();
  [m, browser, claude, model] = await Promise.all([
    startMcpHarness({ env: { OAUTH_SERVER: "true", OAUTH_CLIENT_METADATA_DOCUMENTS: "false" } }),
    openBrowser(),
    claudeCode(binary),
    startModelStandIn({ matches: (name) => name === CREATE_TOOL, input: createArguments }),
  ]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await model?.close();
  await m?.close();
  if (claude) await rm(claude.home, { recursive: true, force: true });
});

const issuer = () => m.h.core.config.mcp.publicUrl;

describe("with client ID metadata documents off", () => {
  it("the metadata offers registration and no metadata documents, and a client named by a URL is sent back unfetched", async () => {
    const metadata = (await (await fetch(`${issuer()}/.well-known/oauth-authorization-server`)).json()) as Any;
    expect(metadata.registration_endpoint).toBe(`${issuer()}/oauth/register`);
    expect(metadata.client_id_metadata_document_supported).toBeUndefined();
    const authorize = new URL(`${issuer()}/oauth/authorize`);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: "https://claude.ai/oauth/claude-code-client-metadata",
      redirect_uri: "http://localhost:4567/callback",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    }).toString();
    // To the host's loopback listener, so that a host holding that id from when documents were on drops it and
    // registers (core/oauth/server/loopback-error-redirect.ts).
    const refused = await fetch(authorize, { redirect: "manual" });
    const back = new URL(refused.headers.get("location") as string);
    expect(back.origin + back.pathname).toBe("http://localhost:4567/callback");
    expect(back.searchParams.get("error")).toBe("invalid_client");
  });
});

describe("Claude Code", () => {
  it("added with the MCP URL alone, signs in through the browser, lists the tools and creates a task with its token", async () => {
    const added = await claude.run(["mcp", "add", "--transport", "http", SERVER_NAME, m.url]);
    expect(added.code, added.output).toBe(0);
    const config = JSON.parse(await readFile(path.join(claude.home, ".claude.json"), "utf8")) as Any;
    expect(config.projects[claude.home].mcpServers[SERVER_NAME]).toEqual({ type: "http", url: m.url });

    // `claude mcp login` registers, opens the browser at the authorization endpoint and waits on its loopback.
    const login = claude.runInTerminal(["mcp", "login", SERVER_NAME]);
    const authorizationUrl = new URL(await claude.nextOpenedUrl(30_000).catch((error: Error) => Promise.reject(new Error(`${error.message}\n${login.output()}`))));
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${issuer()}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get("client_id")).not.toMatch(/^https:/);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(m.url);
    const redirectUri = authorizationUrl.searchParams.get("redirect_uri") as string;
    expect(redirectUri).toMatch(/^http:\/\/localhost:\d+\/callback$/);
    const answer = await signInAsPerson(browser.page, authorizationUrl, m.h.apiKey, redirectUri);
    expect(answer.get("code")).toBeTruthy();
    const loggedIn = await login.exited;
    expect(loggedIn.code, loggedIn.output).toBe(0);
    expect(loggedIn.output).toContain(`Authenticated with "${SERVER_NAME}"`);
    expect((await listClients(m.h.core.db, m.h.tenantId)).map((client) => client.clientName)).toContain(`Claude Code (${SERVER_NAME})`);

    const listed = await claude.run(["mcp", "list"]);
    expect(listed.output).toMatch(new RegExp(`${SERVER_NAME}: ${m.url} \\(HTTP\\) - ✔ Connected`));

    // A prompt: Claude Code lists the server's tools for its model, which calls the create tool.
    const prompted = await claude.prompt("Read this sentence aloud.", model.baseUrl, CREATE_TOOL);
    expect(prompted.code, prompted.output).toBe(0);
    expect(model.offeredTools).toEqual(expect.arrayContaining([CREATE_TOOL, `mcp__${SERVER_NAME}__svc_tasks_get`, `mcp__${SERVER_NAME}__svc_models_list`]));
    expect(model.toolResult?.isError, JSON.stringify(model.toolResult)).toBe(false);
    const created = JSON.parse(String(model.toolResult?.content)) as Any;
    expect(created).toMatchObject({ object: "task", capability: "text_to_speech" });
    const task = await fetch(`${m.h.baseUrl}/v1/tasks/${created.task_id}`, { headers: { authorization: `Bearer ${m.h.apiKey}` } });
    expect(task.status).toBe(200);
    expect(JSON.parse(prompted.output.slice(prompted.output.indexOf("{"))).result).toBe("The task was created.");
  });
  it("after the server forgot it (a database reset), signs in again by registering anew, its files untouched", async () => {
    const before = (await listClients(m.h.core.db, m.h.tenantId)).map((client) => client.clientId);
    // Every client, grant and token the authorization server held is gone, as after a reset.
    await m.h.core.db.delete(oauthRecords);
    const attempts: string[] = [];
    let authenticated = false;
    // A host holding the forgotten id asks with it once, is told invalid_client on its listener at once, drops the
    // id and registers on the next sign-in; one holding no id registers at the first.
    for (let attempt = 0; attempt < 2 && !authenticated; attempt += 1) {
      const started = Date.now();
      const login = claude.runInTerminal(["mcp", "login", SERVER_NAME]);
      const opened = new URL(await claude.nextOpenedUrl(30_000).catch((error: Error) => Promise.reject(new Error(`${error.message}\n${login.output()}`))));
      const clientId = opened.searchParams.get("client_id") as string;
      if (before.includes(clientId)) {
        // The browser is sent straight back to the listener with the error; Claude Code ends the sign-in.
        await browser.page.goto(opened.href).catch(() => undefined);
        const failed = await login.exited;
        expect(Date.now() - started).toBeLessThan(30_000);
        expect(failed.output).toContain("invalid_client");
        attempts.push("forgotten id");
        continue;
      }
      const answer = await signInAsPerson(browser.page, opened, m.h.apiKey, opened.searchParams.get("redirect_uri") as string);
      expect(answer.get("code")).toBeTruthy();
      const loggedIn = await login.exited;
      expect(loggedIn.code, loggedIn.output).toBe(0);
      expect(loggedIn.output).toContain(`Authenticated with "${SERVER_NAME}"`);
      attempts.push("registered");
      authenticated = true;
    }
    // Claude Code 2.1.332 holds the id and no usable token: it asks with the id once, then registers.
    expect(attempts).toEqual(["forgotten id", "registered"]);
    const after = (await listClients(m.h.core.db, m.h.tenantId)).map((client) => client.clientId);
    expect(after).toHaveLength(1);
    expect(before).not.toContain(after[0]);
    const listed = await claude.run(["mcp", "list"]);
    expect(listed.output).toMatch(new RegExp(`${SERVER_NAME}: ${m.url} \\(HTTP\\) - ✔ Connected`));
  });
});
