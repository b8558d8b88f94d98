import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, generateSigningKey, mintDevAccessToken, publicJwks } from "../../core/index.js";
import { startMcpHttpServer } from "../../mcp-server/http.js";
import { balance, countRows } from "../support/harness.js";
import { freePort, PROTOCOLS, startMcpHarness, toolError, type McpHarness } from "./support.js";

// Bearer API keys and OAuth access tokens on the MCP endpoint: RFC 9728 discovery, 401 challenges, audience and
// expiry, scopes per tool.

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness();
});
afterAll(async () => m?.close());

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

function postMcp(url: string, authorization?: string) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify(initialize),
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const metadataUrl = () => `${m.h.core.config.mcp.publicUrl}/.well-known/oauth-protected-resource/mcp`;

// A refusal before the message is read is a JSON-RPC error message, REST's error in its data.
async function refusal(response: Response): Promise<Any> {
  const body = (await response.json()) as Any;
  expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000, message: expect.any(String) } });
  expect(body.error.message).toBe(body.error.data.error.message);
  return body.error.data.error;
}

async function expectChallenge(response: Response, code: string, tokenSent: boolean) {
  expect(response.status).toBe(401);
  const challenge = response.headers.get("www-authenticate") ?? "";
  expect(challenge).toMatch(/^Bearer /);
  expect(challenge).toContain(`resource_metadata="${metadataUrl()}"`);
  if (tokenSent) expect(challenge).toContain('error="invalid_token"');
  else expect(challenge).not.toContain("error=");
  const error = await refusal(response);
  expect(error).toMatchObject({ code, type: "authentication_error", retryable: false });
  expect(error.request_id).toBe(response.headers.get("x-request-id"));
  return error;
}

describe("discovery", () => {
  it("publishes RFC 9728 protected-resource metadata naming this server and its scopes (no authorization server: the built-in one is off)", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const response = await fetch(`${m.h.core.config.mcp.publicUrl}${path}`);
      expect(response.status).toBe(200);
      const metadata = (await response.json()) as Any;
      expect(metadata.resource).toBe(m.url);
      expect(metadata.authorization_servers).toBeUndefined();
      expect(metadata.bearer_methods_supported).toEqual(["header"]);
      for (const scope of ["tasks:read", "speech:write", "assets:write"]) expect(metadata.scopes_supported).toContain(scope);
    }
  });

  it("publishes the development key's public half as a JWKS", async () => {
    const jwks = (await (await fetch(`${m.h.core.config.mcp.publicUrl}/.well-known/jwks.json`)).json()) as Any;
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kid: m.devKey.kid, kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    expect(jwks.keys[0].d).toBeUndefined();
  });
});

describe("401 with the metadata pointer", () => {
  it("without credentials", async () => {
    await expectChallenge(await postMcp(m.url), "unauthorized", false);
  });

  it("for an expired access token", async () => {
    const token = await m.token({ expiresInSeconds: -60 });
    const error = await expectChallenge(await postMcp(m.url, `Bearer ${token}`), "unauthorized", true);
    expect(error.details.reason).toBe("expired");
  });

  it("for an access token minted for another audience", async () => {
    const token = await m.token({ audience: `${m.h.baseUrl}/v1` });
    const error = await expectChallenge(await postMcp(m.url, `Bearer ${token}`), "unauthorized", true);
    expect(error.details.reason).toBe("audience");
  });

  it("for a token signed by a key the issuer does not publish, and for an unknown issuer", async () => {
    const stranger = await generateSigningKey();
    const forged = await mintDevAccessToken(stranger, {
      issuer: m.h.core.config.mcp.publicUrl,
      audience: m.url,
      tenantId: m.h.tenantId,
      subject: "mallory",
      scopes: ["tasks:read"],
      expiresInSeconds: 600,
      now: new Date(),
    });
    expect((await expectChallenge(await postMcp(m.url, `Bearer ${forged}`), "unauthorized", true)).details.reason).toBe("signature");
    const elsewhere = await m.token({ issuer: "https://issuer.example" });
    expect((await expectChallenge(await postMcp(m.url, `Bearer ${elsewhere}`), "unauthorized", true)).details.reason).toBe("issuer");
  });

  it("for a revoked API key, with REST's code", async () => {
    const tenant = await m.h.newTenant("1");
    await admin.revokeApiKey(m.h.core.db, tenant.keyId);
    await expectChallenge(await postMcp(m.url, `Bearer ${tenant.apiKey}`), "invalid_api_key", true);
  });

  it("for a malformed credential, never a 500, with a challenge of printable ASCII, on every MCP path", async () => {
    const malformed = ["Bearer sk_us_nope", "Bearer abc.def", "Bearer hello", "Bearer " + "é".repeat(8), "Basic dXNlcjpwYXNz", "Bearer", "sk_us_x"];
    for (const path of ["/mcp", "/mcp/underscore", "/mcp/dotted"]) {
      for (const authorization of malformed) {
        const response = await postMcp(`${m.h.core.config.mcp.publicUrl}${path}`, authorization);
        expect(response.status, `${path} ${authorization}`).toBe(401);
        const challenge = response.headers.get("www-authenticate") ?? "";
        expect(challenge, authorization).toMatch(/^Bearer resource_metadata="[^"]+"/);
        expect(challenge, authorization).toMatch(/^[\x20-\x7e]+$/);
        const error = await refusal(response);
        expect(error.code, authorization).toMatch(/^(unauthorized|invalid_api_key)$/);
        expect(error.retryable).toBe(false);
      }
    }
  });

  it("and the SDK client surfaces it at connect", async () => {
    const token = await m.token({ expiresInSeconds: -60 });
    await expect(m.connect({ credential: token })).rejects.toThrow(/401|nauthorized/);
  });

  it("a token for a suspended tenant is 403 tenant_disabled", async () => {
    const tenant = await m.h.newTenant("1");
    await admin.setTenantStatus(m.h.core.db, tenant.tenantId, "disabled");
    const response = await postMcp(m.url, `Bearer ${await m.token({ tenantId: tenant.tenantId })}`);
    expect(response.status).toBe(403);
    expect((await refusal(response)).code).toBe("tenant_disabled");
  });
});

describe.each(PROTOCOLS)("scopes over protocol %s", (protocol) => {
  const speech = (clientRequestId: string) => ({
    name: "svc.speech.synthesize",
    arguments: { client_request_id: clientRequestId, voice: "en_female_aria", input: "Scoped words." },
  });

  it("a token lacking speech:write gets insufficient_scope with missing_scopes, and nothing is created or charged", async () => {
    const client = await m.connect({ protocol, credential: await m.token({ scopes: ["tasks:read"] }) });
    expect((await client.listTools()).tools.length).toBeGreaterThan(8);
    const tasksBefore = await countRows(m.h, sql`select count(*)::int as n from tasks`);
    const before = await balance(m.h);
    const error = toolError(await client.callTool(speech(randomUUID())));
    expect(error).toMatchObject({
      code: "insufficient_scope",
      type: "permission_error",
      retryable: false,
      missing_scopes: ["speech:write"],
      jsonrpc_code: -32000,
    });
    expect(error.details.required_scopes).toEqual(["speech:write"]);
    expect(await countRows(m.h, sql`select count(*)::int as n from tasks`)).toBe(tasksBefore);
    expect((await balance(m.h)).available).toBe(before.available);
    // The scope it holds works.
    const list = await client.callTool({ name: "svc.tasks.list", arguments: {} });
    expect(list.isError).toBeFalsy();
  });

  it("a token with speech:write and tasks:read creates and reads as its tenant", async () => {
    const client = await m.connect({ protocol, credential: await m.token({ scopes: ["speech:write", "tasks:read"] }) });
    const created = await client.callTool(speech(randomUUID()));
    expect(created.isError).toBeFalsy();
    const taskId = (created.structuredContent as { task_id: string }).task_id;
    const read = await m.h.request("GET", `/v1/tasks/${taskId}`);
    expect(read.status).toBe(200);
    expect(read.body.social.platform).toBe("mcp");
    // The speech tool sends agents to svc.voices.list for voice ids, so speech:write may list voices.
    expect((await client.callTool({ name: "svc.voices.list", arguments: {} })).isError).toBeFalsy();
    const models = toolError(await client.callTool({ name: "svc.models.list", arguments: {} }));
    expect(models.missing_scopes).toEqual(["catalog:read"]);
  });

  it("an API key limited to some areas holds only their scopes", async () => {
    const tenant = await m.h.newTenant("5", ["tasks"]);
    const client = await m.connect({ protocol, credential: tenant.apiKey });
    expect(toolError(await client.callTool(speech(randomUUID()))).missing_scopes).toEqual(["speech:write"]);
    expect((await client.callTool({ name: "svc.tasks.list", arguments: {} })).isError).toBeFalsy();
  });
});

describe("an external issuer", () => {
  let jwksServer: Server;
  beforeAll(async () => {
    jwksServer = createServer();
  });
  afterAll(async () => new Promise<void>((resolve) => jwksServer.close(() => resolve())));

  it("is trusted through its JWKS URL, and only for its own issuer name", async () => {
    const issuerKey = await generateSigningKey();
    jwksServer.on("request", (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(publicJwks(issuerKey)));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, "127.0.0.1", () => resolve()));
    const jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks`;
    const port = await freePort();
    const config = m.h.core.config;
    const publicUrl = `http://127.0.0.1:${port}`;
    const server = await startMcpHttpServer({
      ...m.h.core,
      config: {
        ...config,
        mcp: { ...config.mcp, port, publicUrl },
        oauth: { ...config.oauth, issuer: "https://login.example", jwksUrl, signingKey: null, server: false },
      },
    });
    try {
      const mint = (issuer: string) =>
        mintDevAccessToken(issuerKey, {
          issuer,
          audience: server.url,
          tenantId: m.h.tenantId,
          subject: "user-1",
          scopes: ["tasks:read"],
          expiresInSeconds: 600,
          now: new Date(),
        });
      const client = await m.connect({ url: server.url, credential: await mint("https://login.example") });
      expect((await client.callTool({ name: "svc.tasks.list", arguments: { limit: 1 } })).isError).toBeFalsy();
      const metadata = (await (await fetch(`${publicUrl}/.well-known/oauth-protected-resource/mcp`)).json()) as Any;
      expect(metadata.authorization_servers).toEqual(["https://login.example"]);
      expect((await postMcp(server.url, `Bearer ${await mint("https://other.example")}`)).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
