import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listClients } from "../../core/oauth/server/grants.js";
import { openBrowser, type Browser } from "../console/browser.js";
import { startMcpHarness, type McpHarness } from "../mcp/support.js";
import { claudeCode, installClaudeCode, type ClaudeCode } from "./claude-code.js";
import { signInAsPerson } from "./host.js";

// Claude Code signing in to a server that offers client ID metadata documents (the default) but cannot reach the
// internet, as this machine cannot: Claude Code names itself by its document on claude.ai, which the server fails
// to fetch. The server sends invalid_client to Claude Code's listener at once (no five-minute wait) and withdraws
// the offer from its metadata. Claude Code 2.1.332 keeps the metadata it read first, offer included, so it names
// itself by the document until the person removes the server and adds it again (its own commands, no file
// deleted); then it registers (RFC 7591) and signs in.

vi.setConfig({ testTimeout: 90_000 });

const SERVER_NAME = "media-tasks";
const CLAUDE_CODE_DOCUMENT = "https://claude.ai/oauth/claude-code-client-metadata";

let m: McpHarness;
let browser: Browser;
let claude: ClaudeCode;

beforeAll(async () => {
  const binary = installClaudeCode();
  [m, browser, claude] = await Promise.all([startMcpHarness({ worker: false, env: { OAUTH_SERVER: "true" } }), openBrowser(), claudeCode(binary)]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await m?.close();
  if (claude) await rm(claude.home, { recursive: true, force: true });
});

describe("Claude Code on a server that cannot fetch its metadata document", () => {
  it("is told invalid_client at once; once the server is added again, registers and signs in", async () => {
    const metadataUrl = `${m.h.core.config.mcp.publicUrl}/.well-known/oauth-authorization-server`;
    const offered = async () => ((await (await fetch(metadataUrl)).json()) as { client_id_metadata_document_supported?: boolean }).client_id_metadata_document_supported;
    expect(await offered()).toBe(true);
    const added = await claude.run(["mcp", "add", "--transport", "http", SERVER_NAME, `${m.url}/underscore`]);
    expect(added.code, added.output).toBe(0);

    const started = Date.now();
    const first = claude.runInTerminal(["mcp", "login", SERVER_NAME]);
    const named = new URL(await claude.nextOpenedUrl(30_000).catch((error: Error) => Promise.reject(new Error(`${error.message}\n${first.output()}`))));
    expect(named.searchParams.get("client_id")).toBe(CLAUDE_CODE_DOCUMENT);
    // The browser lands back on Claude Code's listener with the error, and the sign-in ends there.
    await browser.page.goto(named.href).catch(() => undefined);
    const failed = await first.exited;
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(failed.output).toContain("invalid_client");
    expect(await offered()).toBeUndefined();

    // Claude Code keeps the authorization server's metadata it read first (its discoveryState in ~/.claude.json)
    // and with it the offer, so a second login names itself by the document again; the person removes the server
    // and adds it again with Claude Code's own commands, and its next discovery reads the metadata without it.
    const again = claude.runInTerminal(["mcp", "login", SERVER_NAME]);
    const renamed = new URL(await claude.nextOpenedUrl(30_000));
    expect(renamed.searchParams.get("client_id")).toBe(CLAUDE_CODE_DOCUMENT);
    await browser.page.goto(renamed.href).catch(() => undefined);
    expect((await again.exited).output).toContain("invalid_client");
    expect((await claude.run(["mcp", "remove", SERVER_NAME])).code).toBe(0);
    expect((await claude.run(["mcp", "add", "--transport", "http", SERVER_NAME, `${m.url}/underscore`])).code).toBe(0);

    const second = claude.runInTerminal(["mcp", "login", SERVER_NAME]);
    const registered = new URL(await claude.nextOpenedUrl(30_000).catch((error: Error) => Promise.reject(new Error(`${error.message}\n${second.output()}`))));
    const clientId = registered.searchParams.get("client_id") as string;
    expect(clientId).not.toMatch(/^https:/);
    const answer = await signInAsPerson(browser.page, registered, m.h.apiKey, registered.searchParams.get("redirect_uri") as string);
    expect(answer.get("code")).toBeTruthy();
    const loggedIn = await second.exited;
    expect(loggedIn.code, loggedIn.output).toBe(0);
    expect(loggedIn.output).toContain(`Authenticated with "${SERVER_NAME}"`);
    expect((await listClients(m.h.core.db, m.h.tenantId)).map((client) => client.clientId)).toEqual([clientId]);
  });
});
