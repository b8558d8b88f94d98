import { spawn } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { request as httpRequest } from "node:http";
import { admin, FAILED_SIGN_INS, SCOPES } from "../../core/index.js";
import { openBrowser, type Browser } from "../console/browser.js";
import { startMcpHttpServer } from "../../mcp-server/http.js";
import { ensureBuilt, svc } from "../cli/svc-process.js";
import { eventually } from "../support/wait.js";
import { freePort, startMcpHarness, toolError, type McpHarness } from "../mcp/support.js";
import { loopbackCallback, sdkHost, signInAsPerson, type LoopbackCallback } from "./host.js";

// The built-in authorization server as hosts meet it, from the MCP URL alone: discovery, registration, a person
// signing in with an API key in a headless Chromium, the code exchanged with PKCE, tools called with the token;
// then every refusal the issue names, refresh rotation, narrowing on the consent page, the pages' guards, and the
// operator's view (svc oauth). One service for the whole file; each flow signs in from a fresh browser session.

vi.setConfig({ testTimeout: 60_000 });

let m: McpHarness;
let browser: Browser;
let callback: LoopbackCallback;

beforeAll(async () => {
  ensureBuilt();
  [m, browser, callback] = await Promise.all([startMcpHarness({ env: { OAUTH_SERVER: "true", OAUTH_REGISTRATIONS_PER_HOUR: "1000" } }), openBrowser(), loopbackCallback()]);
});
afterAll(async () => {
  await browser?.close();
  await callback?.close();
  await m?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const issuer = () => m.h.core.config.mcp.publicUrl;
const endpoint = (path: string) => `${issuer()}${path}`;

async function register(redirectUri = callback.redirectUrl): Promise<string> {
  const response = await fetch(endpoint("/oauth/register"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Raw host", redirect_uris: [redirectUri], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as Any).client_id;
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

interface AuthorizeOptions {
  clientId: string;
  challenge?: string;
  method?: string;
  redirectUri?: string;
  scope?: string;
  resource?: string;
}

function authorizeUrl(options: AuthorizeOptions): URL {
  const url = new URL(endpoint("/oauth/authorize"));
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", options.clientId);
  url.searchParams.set("redirect_uri", options.redirectUri ?? callback.redirectUrl);
  url.searchParams.set("scope", options.scope ?? SCOPES.join(" "));
  url.searchParams.set("resource", options.resource ?? m.url);
  url.searchParams.set("state", randomUUID());
  if (options.challenge) url.searchParams.set("code_challenge", options.challenge);
  url.searchParams.set("code_challenge_method", options.method ?? "S256");
  return url;
}

async function token(params: Record<string, string>): Promise<{ status: number; body: Any }> {
  const response = await fetch(endpoint("/oauth/token"), { method: "POST", body: new URLSearchParams(params) });
  return { status: response.status, body: await response.json() };
}

// A whole authorization the way a host does it by hand: registration, the person at the browser, the exchange.
async function authorizedClient(apiKey = m.h.apiKey, options: { untick?: string[]; scope?: string } = {}) {
  const clientId = await register();
  const { verifier, challenge } = pkce();
  const answer = await signInAsPerson(browser.page, authorizeUrl({ clientId, challenge, ...(options.scope ? { scope: options.scope } : {}) }), apiKey, callback.redirectUrl, options);
  const code = answer.get("code") as string;
  const exchanged = await token({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: callback.redirectUrl, client_id: clientId, resource: m.url });
  expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
  return { clientId, verifier, code, tokens: exchanged.body as { access_token: string; refresh_token: string; scope: string } };
}

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

function postMcp(accessToken: string) {
  return fetch(m.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${accessToken}` },
    body: JSON.stringify(initialize),
  });
}

async function connect(accessToken: string) {
  const client = new Client({ name: "raw", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(m.url), { requestInit: { headers: { authorization: `Bearer ${accessToken}` } } }));
  return client;
}

describe("discovery", () => {
  it("the resource names the built-in server, whose metadata is at both well-known paths of its issuer", async () => {
    const resource = (await (await fetch(endpoint("/.well-known/oauth-protected-resource/mcp"))).json()) as Any;
    expect(resource.authorization_servers).toEqual([issuer()]);
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      const metadata = (await (await fetch(endpoint(path))).json()) as Any;
      expect(metadata).toMatchObject({
        issuer: issuer(),
        authorization_endpoint: endpoint("/oauth/authorize"),
        token_endpoint: endpoint("/oauth/token"),
        registration_endpoint: endpoint("/oauth/register"),
        code_challenge_methods_supported: ["S256"],
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        token_endpoint_auth_methods_supported: ["none"],
        client_id_metadata_document_supported: true,
        authorization_response_iss_parameter_supported: true,
      });
      for (const scope of SCOPES) expect(metadata.scopes_supported).toContain(scope);
    }
  });

  it("publishes only URLs of MCP_PUBLIC_URL, whatever Host or X-Forwarded-Host a request names", async () => {
    // fetch sets Host itself; node:http sends the forged one as given.
    const forged = (path: string, headers: Record<string, string>) =>
      new Promise<Any>((resolve, reject) => {
        const target = new URL(endpoint(path));
        const sent = httpRequest({ host: target.hostname, port: target.port, path, headers }, (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk.toString()));
          response.on("end", () => resolve(JSON.parse(text)));
        });
        sent.on("error", reject).end();
      });
    // Every URL a document holds, with the member that holds it.
    const urls = (value: unknown, member = ""): [string, string][] =>
      typeof value === "string"
        ? /^https?:/.test(value)
          ? [[member, value]]
          : []
        : value && typeof value === "object"
          ? Object.entries(value).flatMap(([name, inner]) => urls(inner, Array.isArray(value) ? member : name))
          : [];
    const forgeries: Record<string, string>[] = [{ host: "evil.example" }, { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }];
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration", "/.well-known/oauth-protected-resource/mcp"]) {
      for (const headers of forgeries) {
        const published = urls(await forged(path, headers));
        expect(published.length, path).toBeGreaterThan(path.includes("protected-resource") ? 2 : 4);
        for (const [member, url] of published) {
          const where = `${member}: ${url} in ${path} for ${JSON.stringify(headers)}`;
          // The REST API's documentation is at its own configured address, PUBLIC_BASE_URL.
          if (member === "resource_documentation") expect(url, where).toBe(`${m.h.core.config.publicBaseUrl}/v1/docs`);
          else expect(url === issuer() || url.startsWith(`${issuer()}/`), where).toBe(true);
        }
      }
    }
  });

  it("registers public clients only", async () => {
    const secret = await fetch(endpoint("/oauth/register"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [callback.redirectUrl], token_endpoint_auth_method: "client_secret_basic" }),
    });
    expect(secret.status).toBe(400);
    expect(((await secret.json()) as Any).error).toBe("invalid_client_metadata");
    const registered = (await (
      await fetch(endpoint("/oauth/register"), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: [callback.redirectUrl] }),
      })
    ).json()) as Any;
    expect(registered.token_endpoint_auth_method).toBe("none");
    expect(registered.client_secret).toBeUndefined();
  });

  it("registers redirect URIs over HTTPS or to loopback only, and none with a user name or password", async () => {
    const registration = (redirect_uris: string[]) =>
      fetch(endpoint("/oauth/register"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris }) });
    for (const uri of ["http://example.com/callback", "http://10.0.0.5:8080/callback", "http://host.localhost.example/cb"]) {
      const refused = await registration([callback.redirectUrl, uri]);
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as Any;
      expect(body.error).toBe("invalid_redirect_uri");
      expect(body.error_description).toContain(uri);
    }
    for (const uri of ["https://user:pw@x.example/cb", "https://user@x.example/cb", "http://user:pw@127.0.0.1:9999/cb"]) {
      const refused = await registration([uri]);
      expect(refused.status, uri).toBe(400);
      const body = (await refused.json()) as Any;
      expect(body.error).toBe("invalid_redirect_uri");
      expect(body.error_description).toContain("user name or password");
      expect(body.error_description).not.toContain("pw");
    }
    for (const uri of ["https://example.com/callback", "http://localhost:9999/cb", "http://[::1]/cb"]) {
      expect((await registration([uri])).status).toBe(201);
    }
  });
});

describe("a host that knows only the MCP URL", () => {
  it("discovers the server, registers, has the person sign in, lists tools and creates a task with the token", async () => {
    const host = sdkHost(callback.redirectUrl);
    const first = new StreamableHTTPClientTransport(new URL(m.url), { authProvider: host });
    await expect(new Client({ name: "host", version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(host.authorizationUrl?.origin).toBe(issuer());
    const answer = await signInAsPerson(browser.page, host.authorizationUrl as URL, m.h.apiKey, callback.redirectUrl);
    expect(answer.get("iss")).toBe(issuer());
    await first.finishAuth(answer.get("code") as string, answer.get("iss") ?? undefined);
    expect(host.stored.tokens?.refresh_token).toBeTruthy();

    const client = new Client({ name: "host", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(m.url), { authProvider: host }));
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain("svc.speech.synthesize");
    const created = (await client.callTool({
      name: "svc.speech.synthesize",
      arguments: { client_request_id: randomUUID(), voice: "en_female_aria", input: "Signed in through the browser." },
    })) as Any;
    expect(created.isError, JSON.stringify(created.structuredContent)).toBeFalsy();
    expect(created.structuredContent.status).toMatch(/queued|running|succeeded/);
    await client.close();
  });
});

describe("refusals", () => {
  it("a code is good once: a second exchange is refused and ends what the first one issued", async () => {
    const { clientId, verifier, code, tokens } = await authorizedClient();
    expect((await postMcp(tokens.access_token)).status).toBe(200);
    const again = await token({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: callback.redirectUrl, client_id: clientId });
    expect(again).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await postMcp(tokens.access_token)).status).toBe(401);
  });

  it("a verifier that does not match the challenge is refused, and so is an authorization without S256", async () => {
    const clientId = await register();
    const { challenge } = pkce();
    const answer = await signInAsPerson(browser.page, authorizeUrl({ clientId, challenge }), m.h.apiKey, callback.redirectUrl);
    const mismatch = await token({
      grant_type: "authorization_code",
      code: answer.get("code") as string,
      code_verifier: pkce().verifier,
      redirect_uri: callback.redirectUrl,
      client_id: clientId,
    });
    expect(mismatch).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    for (const url of [authorizeUrl({ clientId }), authorizeUrl({ clientId, challenge, method: "plain" })]) {
      const refused = await fetch(url, { redirect: "manual" });
      expect(refused.status).toBe(303);
      const to = new URL(refused.headers.get("location") ?? "");
      expect(`${to.origin}${to.pathname}`).toBe(callback.redirectUrl);
      expect(to.searchParams.get("error")).toBe("invalid_request");
      expect(to.searchParams.get("code")).toBeNull();
    }
  });

  it("redirect URIs match exactly: another port or path is never redirected to, and a code is bound to its URI", async () => {
    const clientId = await register();
    const { challenge, verifier } = pkce();
    const registered = new URL(callback.redirectUrl);
    const otherPort = new URL(callback.redirectUrl);
    otherPort.port = String(Number(registered.port) + 1);
    for (const redirectUri of [otherPort.href, `${callback.redirectUrl}/more`, `${callback.redirectUrl}?next=1`, callback.redirectUrl.replace("127.0.0.1", "localhost")]) {
      const refused = await fetch(authorizeUrl({ clientId, challenge, redirectUri }), { redirect: "manual" });
      expect(refused.status, redirectUri).toBe(400);
      expect(refused.headers.get("location"), redirectUri).toBeNull();
      expect(await refused.text()).toContain("redirect_uri did not match any of the client");
    }
    const answer = await signInAsPerson(browser.page, authorizeUrl({ clientId, challenge }), m.h.apiKey, callback.redirectUrl);
    const elsewhere = await token({ grant_type: "authorization_code", code: answer.get("code") as string, code_verifier: verifier, redirect_uri: otherPort.href, client_id: clientId });
    expect(elsewhere).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("a loopback redirect URI registered without a port takes any port (OAuth 2.1 §8.4.2), and nothing else of it varies", async () => {
    const portless = callback.redirectUrl.replace(/:\d+\//, "/");
    const clientId = await register(portless);
    const { challenge, verifier } = pkce();
    for (const redirectUri of [callback.redirectUrl.replace("/callback", "/other"), callback.redirectUrl.replace("127.0.0.1", "localhost"), `${callback.redirectUrl}?next=1`]) {
      const refused = await fetch(authorizeUrl({ clientId, challenge, redirectUri }), { redirect: "manual" });
      expect(refused.status, redirectUri).toBe(400);
    }
    const answer = await signInAsPerson(browser.page, authorizeUrl({ clientId, challenge }), m.h.apiKey, callback.redirectUrl);
    const exchanged = await token({ grant_type: "authorization_code", code: answer.get("code") as string, code_verifier: verifier, redirect_uri: callback.redirectUrl, client_id: clientId });
    expect(exchanged.status).toBe(200);
  });

  it("never redirects to an address a client did not register: an open-redirect attempt gets a page", async () => {
    const clientId = await register();
    const { challenge } = pkce();
    const attempts = [
      authorizeUrl({ clientId, challenge, redirectUri: "https://evil.example/callback" }),
      authorizeUrl({ clientId: "no-such-client", challenge, redirectUri: "https://evil.example/callback" }),
      authorizeUrl({ clientId: "https://evil.example/client.json", challenge, redirectUri: "https://evil.example/callback" }),
    ];
    for (const url of attempts) {
      const refused = await fetch(url, { redirect: "manual" });
      expect(refused.status, String(url)).toBe(400);
      expect(refused.headers.get("location")).toBeNull();
      expect(refused.headers.get("content-type")).toMatch(/^text\/html/);
      expect(refused.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(await refused.text()).not.toContain("evil.example/callback");
    }
    const javascript = await fetch(endpoint("/oauth/register"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["javascript:alert(1)"] }),
    });
    expect(javascript.status).toBe(400);
    const unknownStep = await fetch(endpoint("/oauth/interaction/unknown"), { redirect: "manual" });
    expect(unknownStep.status).toBe(400);
    expect(unknownStep.headers.get("location")).toBeNull();
  });

  it("a token for another audience is neither issued nor accepted", async () => {
    const clientId = await register();
    const { challenge } = pkce();
    const refused = await fetch(authorizeUrl({ clientId, challenge, resource: "https://elsewhere.example/mcp" }), { redirect: "manual" });
    const to = new URL(refused.headers.get("location") ?? "");
    expect(to.searchParams.get("error")).toBe("invalid_target");
    const authorized = await authorizedClient();
    const exchanged = await token({
      grant_type: "refresh_token",
      refresh_token: authorized.tokens.refresh_token,
      client_id: authorized.clientId,
      resource: "https://elsewhere.example/mcp",
    });
    expect(exchanged).toMatchObject({ status: 400, body: { error: "invalid_target" } });
    const minted = await m.token({ audience: `${m.h.baseUrl}/v1` });
    const response = await postMcp(minted);
    expect(response.status).toBe(401);
    // The refusal is a JSON-RPC error carrying REST's error in data.error (mcp-server/http-auth.ts).
    expect(((await response.json()) as Any).error.data.error.details.reason).toBe("audience");
  });

  it("a revoked key's tokens stop at once: 401 with the challenge, and no refresh", async () => {
    const tenant = await m.h.newTenant("10");
    const { clientId, tokens } = await authorizedClient(tenant.apiKey);
    expect((await postMcp(tokens.access_token)).status).toBe(200);
    await admin.revokeApiKey(m.h.core.db, tenant.keyId);
    const response = await postMcp(tokens.access_token);
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain(`resource_metadata="${issuer()}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).toContain('error="invalid_token"');
    expect(((await response.json()) as Any).error.data.error).toMatchObject({ code: "unauthorized", details: { reason: "revoked" } });
    const refreshed = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
    expect(refreshed).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("a disabled tenant's tokens answer 403 tenant_disabled, refresh is refused, and its keys cannot sign in", async () => {
    const tenant = await m.h.newTenant("10");
    const { clientId, tokens } = await authorizedClient(tenant.apiKey);
    await admin.setTenantStatus(m.h.core.db, tenant.tenantId, "disabled");
    const response = await postMcp(tokens.access_token);
    expect(response.status).toBe(403);
    expect(((await response.json()) as Any).error.data.error.code).toBe("tenant_disabled");
    expect(await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId })).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });
    const page = browser.page;
    await page.context().clearCookies();
    await page.goto(String(authorizeUrl({ clientId: await register(), challenge: pkce().challenge })));
    await page.getByLabel("API key of your account").fill(tenant.apiKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    expect(await page.getByRole("alert").textContent()).toBe("The account this API key belongs to is suspended.");
  });
});

describe("refresh tokens", () => {
  it("rotate at every use: the old one is refused after use, and using it again ends the whole grant", async () => {
    const { clientId, tokens } = await authorizedClient();
    const first = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await postMcp(first.body.access_token)).status).toBe(200);
    const replayed = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
    expect(replayed).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    // Reuse means the token leaked: the grant and everything issued under it end.
    expect(await token({ grant_type: "refresh_token", refresh_token: first.body.refresh_token, client_id: clientId })).toMatchObject({ status: 400 });
    expect((await postMcp(first.body.access_token)).status).toBe(401);
  });
});

const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-artifacts/oauth");

async function pageScreenshot(page: Page, name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

// What the page logged as errors, less the failed-request lines Chromium logs for a 4xx a test provokes: a style
// the Content-Security-Policy blocked would be here.
const pageProblems = () => browser.problems.filter((text) => !text.startsWith("Failed to load resource: the server responded with a status of 4"));

describe("the consent page", () => {
  it("lists in words what the client asks, and the person may narrow it", async () => {
    const { tokens } = await authorizedClient(m.h.apiKey, { untick: ["speech:write", "music:write"] });
    expect(tokens.scope.split(" ")).not.toContain("speech:write");
    expect(tokens.scope.split(" ")).toContain("tasks:read");
    const client = await connect(tokens.access_token);
    const refused = await client.callTool({
      name: "svc.speech.synthesize",
      arguments: { client_request_id: randomUUID(), voice: "en_female_aria", input: "Not allowed." },
    });
    expect(toolError(refused)).toMatchObject({ code: "insufficient_scope", missing_scopes: ["speech:write"] });
    expect((await client.callTool({ name: "svc.tasks.list", arguments: { limit: 1 } })).isError).toBeFalsy();
    await client.close();
  });

  it("offers at most the key's areas, shows the rest as not allowed, and is accessible", async () => {
    const tenant = await m.h.newTenant("10", ["tasks", "speech"]);
    const clientId = await register();
    const { challenge, verifier } = pkce();
    const page = browser.page;
    await page.context().clearCookies();
    await page.goto(String(authorizeUrl({ clientId, challenge })));
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    await pageScreenshot(page, "sign-in");
    await page.getByLabel("API key of your account").fill(tenant.apiKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Allow this application to use your account?" }).waitFor();
    await pageScreenshot(page, "consent");
    const offered = await page.locator('input[name="scope"]').evaluateAll((inputs) => inputs.map((input) => (input as unknown as { value: string }).value));
    expect(offered).toEqual(["tasks:read", "tasks:write", "speech:write"]);
    expect(await page.getByRole("checkbox", { name: "synthesize speech (svc.speech.synthesize) speech:write" }).isChecked()).toBe(true);
    const unavailable = await page.getByRole("list", { name: "It also asks for what this key may not grant:" }).getByRole("listitem").allTextContents();
    expect(unavailable).toContain("upload media (svc.assets.upload) assets:write");
    expect(unavailable).toHaveLength(SCOPES.length - 3);
    expect(await page.getByRole("group", { name: "It may" }).isVisible()).toBe(true);
    expect(await page.locator("body").textContent()).toContain(callback.redirectUrl);
    const redirected = page.waitForURL((url) => url.href.startsWith(callback.redirectUrl));
    await page.getByRole("button", { name: "Allow" }).click();
    await redirected;
    const exchanged = await token({ grant_type: "authorization_code", code: new URL(page.url()).searchParams.get("code") as string, code_verifier: verifier, redirect_uri: callback.redirectUrl, client_id: clientId });
    expect(exchanged.body.scope.split(" ").sort()).toEqual(["speech:write", "tasks:read", "tasks:write"]);
    expect(pageProblems()).toEqual([]);
  });

  it("denying sends the client access_denied and no code", async () => {
    const answer = await signInAsPerson(browser.page, authorizeUrl({ clientId: await register(), challenge: pkce().challenge }), m.h.apiKey, callback.redirectUrl, { deny: true });
    expect(answer.get("error")).toBe("access_denied");
    expect(answer.get("code")).toBeNull();
  });
});

describe("step-up with MCP_SCOPE_CHALLENGE", () => {
  it("a call lacking its scope is answered HTTP 403 naming the scope, and the SDK client re-authorizes for it", async () => {
    const port = await freePort();
    const config = m.h.core.config;
    const server = await startMcpHttpServer({
      ...m.h.core,
      config: { ...config, mcp: { ...config.mcp, port, publicUrl: `http://127.0.0.1:${port}`, scopeChallenge: true } },
    });
    const speech = () => ({
      name: "svc.speech.synthesize",
      arguments: { client_request_id: randomUUID(), voice: "en_female_aria", input: "Stepped up." },
    });
    try {
      const host = sdkHost(callback.redirectUrl);
      const first = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: host });
      await expect(new Client({ name: "host", version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
      const narrowed = await signInAsPerson(browser.page, host.authorizationUrl as URL, m.h.apiKey, callback.redirectUrl, { untick: ["speech:write"] });
      await first.finishAuth(narrowed.get("code") as string, narrowed.get("iss") ?? undefined);

      const raw = await fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${host.stored.tokens?.access_token}` },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: speech() }),
      });
      expect(raw.status).toBe(403);
      const challenge = raw.headers.get("www-authenticate") ?? "";
      expect(challenge).toMatch(/^Bearer error="insufficient_scope", scope="speech:write", /);
      expect(challenge).toContain(`resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`);
      expect(((await raw.json()) as Any).error).toMatchObject({ code: "insufficient_scope", missing_scopes: ["speech:write"] });

      const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: host });
      const client = new Client({ name: "host", version: "1" });
      await client.connect(transport);
      const narrowedUrl = host.authorizationUrl;
      await expect(client.callTool(speech())).rejects.toBeInstanceOf(UnauthorizedError);
      const steppedUrl = host.authorizationUrl as URL;
      expect(steppedUrl).not.toBe(narrowedUrl);
      expect(steppedUrl.searchParams.get("scope")?.split(" ")).toContain("speech:write");
      const stepped = await signInAsPerson(browser.page, steppedUrl, m.h.apiKey, callback.redirectUrl);
      await transport.finishAuth(stepped.get("code") as string, stepped.get("iss") ?? undefined);
      const created = (await client.callTool(speech())) as Any;
      expect(created.isError, JSON.stringify(created.structuredContent)).toBeFalsy();
      await client.close();
    } finally {
      await server.close();
    }
  });
});

describe("svc oauth", () => {
  it("lists a tenant's clients and grants, and revoking a grant or a client's grants ends their tokens at once", async () => {
    const tenant = await m.h.newTenant("10");
    const first = await authorizedClient(tenant.apiKey);
    const second = await authorizedClient(tenant.apiKey, { untick: ["music:write"] });
    const env = m.childEnv();
    const run = async (...args: string[]) => {
      const result = await svc(["oauth", ...args, "--json"], { env });
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as Any;
    };
    const grants = await run("grants", "list", tenant.tenantId);
    expect(grants).toHaveLength(2);
    const byClient = new Map<string, Any>(grants.map((grant: Any) => [grant.client_id, grant]));
    expect(byClient.get(first.clientId)).toMatchObject({ client_name: "Raw host", key_id: tenant.keyId, scopes: [...SCOPES] });
    expect(byClient.get(second.clientId).scopes).not.toContain("music:write");
    const clients = await run("clients", "list", tenant.tenantId);
    expect(clients.map((client: Any) => client.client_id).sort()).toEqual([first.clientId, second.clientId].sort());

    expect(await run("grants", "revoke", byClient.get(first.clientId).grant_id)).toMatchObject({ status: "revoked" });
    expect((await postMcp(first.tokens.access_token)).status).toBe(401);
    expect((await postMcp(second.tokens.access_token)).status).toBe(200);
    expect(await run("clients", "revoke", tenant.tenantId, second.clientId)).toMatchObject({ grants_revoked: 1 });
    expect((await postMcp(second.tokens.access_token)).status).toBe(401);
    expect(await token({ grant_type: "refresh_token", refresh_token: second.tokens.refresh_token, client_id: second.clientId })).toMatchObject({ status: 400 });
    expect(await run("grants", "list", tenant.tenantId)).toEqual([]);
    const unknown = await svc(["oauth", "grants", "revoke", "no-such-grant"], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No grant no-such-grant");
  });
});

describe("mcp-remote, the stdio bridge of hosts that speak only stdio", () => {
  it("signs in from the MCP URL alone, then lists tools and creates a task over stdio", async () => {
    const callbackPort = await freePort();
    const configDir = await mkdtemp(path.join(tmpdir(), "mcp-remote-"));
    const proxy = spawn(process.execPath, [createRequire(import.meta.url).resolve("mcp-remote/dist/proxy.js"), m.url, String(callbackPort)], {
      // Its browser helper has nothing to open here: the test is the person at the browser.
      env: { PATH: process.env.PATH ?? "", MCP_REMOTE_CONFIG_DIR: configDir, BROWSER: "true" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    proxy.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const answers = new Map<number, Any>();
    let pending = "";
    proxy.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
        const message = JSON.parse(pending.slice(0, end)) as Any;
        pending = pending.slice(end + 1);
        if (message.id !== undefined) answers.set(message.id, message);
      }
    });
    const send = (message: object) => proxy.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    const answer = (id: number) => eventually(`mcp-remote's answer ${id}`, 30_000, () => answers.get(id));
    try {
      send({ id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "stdio-host", version: "1" } } });
      const url = await eventually(() => `mcp-remote's authorization URL in:\n${stderr}`, 30_000, () => /http:\/\/\S+\/oauth\/authorize\?\S+/.exec(stderr)?.[0]);
      const query = await signInAsPerson(browser.page, url, m.h.apiKey, `http://localhost:${callbackPort}/oauth/callback`);
      expect(query.get("code")).toBeTruthy();
      expect((await answer(1)).result.serverInfo.name).toBe("media-task-service");
      send({ method: "notifications/initialized" });
      send({ id: 2, method: "tools/list" });
      expect((await answer(2)).result.tools.map((tool: Any) => tool.name)).toContain("svc.speech.synthesize");
      send({ id: 3, method: "tools/call", params: { name: "svc.speech.synthesize", arguments: { client_request_id: randomUUID(), voice: "en_female_aria", input: "Through mcp-remote." } } });
      const created = (await answer(3)).result;
      expect(created.isError, JSON.stringify(created.structuredContent)).toBeFalsy();
      expect(created.structuredContent.task_id).toMatch(/^task_/);
    } finally {
      proxy.kill();
      await rm(configDir, { recursive: true, force: true });
    }
  });
});

// Last in the file: its failures hold back keys of one prefix from this address for a minute.
describe("the sign-in page", () => {
  it("never echoes a key, refuses forms from elsewhere, and throttles guessing without locking out the right key", async () => {
    const page = browser.page;
    const openSignIn = async () => {
      await page.context().clearCookies();
      await page.goto(String(authorizeUrl({ clientId: await register(), challenge: pkce().challenge })));
      return {
        action: endpoint((await page.locator("form").getAttribute("action")) as string),
        csrf: await page.locator('input[name="csrf"]').inputValue(),
      };
    };
    await openSignIn();
    // Guesses that begin otherwise than the right key, as a stranger's guesses would.
    const guessed = m.h.apiKey.startsWith("sk_us_QQQQ") ? "R" : "Q";
    const wrong = (n: number) => `sk_us_${guessed.repeat(28)}${String(n).padStart(4, "0")}`;
    await page.getByLabel("API key of your account").fill(wrong(0));
    await page.getByRole("button", { name: "Sign in" }).click();
    expect(await page.getByRole("alert").textContent()).toBe("That API key is unknown or has been revoked.");
    expect(await page.getByLabel("API key of your account").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("API key of your account").inputValue()).toBe("");
    expect(await page.content()).not.toContain(guessed.repeat(28));
    await pageScreenshot(page, "sign-in-refused");

    const { action, csrf } = await openSignIn();
    expect((await page.request.post(action, { form: { api_key: m.h.apiKey } })).status()).toBe(403);
    expect((await page.request.post(action, { form: { api_key: m.h.apiKey, csrf }, headers: { origin: "https://evil.example" } })).status()).toBe(403);

    // A window may close meanwhile: at most FAILED_SIGN_INS failures in the one open, then 429 for that prefix.
    const statuses: number[] = [];
    while (statuses.length <= 2 * FAILED_SIGN_INS && statuses.at(-1) !== 429) {
      statuses.push((await page.request.post(action, { form: { api_key: wrong(statuses.length + 1), csrf } })).status());
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
    const stopped = await page.request.post(action, { form: { api_key: wrong(99), csrf } });
    expect(stopped.status()).toBe(429);
    const retryAfter = Number(stopped.headers()["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(await stopped.text()).toMatch(new RegExp(`Too many failed sign-ins from your address with keys beginning like this one; try again in ${retryAfter} seconds?\\.`));

    // The right key, from the same address and meanwhile, signs in: the consent page follows.
    const signedIn = await page.request.post(action, { form: { api_key: m.h.apiKey, csrf } });
    expect(signedIn.status()).toBe(200);
    expect(await signedIn.text()).toContain("Allow this application to use your account?");

    // And the guessing is still held back, on a sign-in opened afresh.
    const again = await openSignIn();
    const still = await page.request.post(again.action, { form: { api_key: wrong(100), csrf: again.csrf } });
    expect(still.status()).toBe(429);
    expect(Number(still.headers()["retry-after"])).toBeGreaterThan(0);
    expect(await still.text()).toContain("try again in");
  });
});
