import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, ERROR_CATALOGUE, type ErrorCode } from "../../core/index.js";
import { countRows, startHarness, type ApiResponse, type Harness } from "../support/harness.js";

// SPEC.md "Authentication": every refusal observed over real HTTP, on a read (GET /v1/credits) and on a
// task-creating call (POST /v1/audio/speech), and none of them leaves a task behind.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const SPEECH = { voice: "en_female_aria", input: "hi" };
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
let keyCounter = 0;

function secret32(): string {
  let out = "";
  for (const byte of randomBytes(32)) out += BASE62[byte % 62];
  return out;
}

function taskCount(): Promise<number> {
  return countRows(h, sql`select count(*)::int as n from tasks`);
}

// The same refusal on both endpoints; Authorization is built from `authorization` (null = header absent).
async function bothEndpoints(authorization: string | null): Promise<ApiResponse[]> {
  const headers: Record<string, string> = authorization === null ? {} : { authorization };
  const read = await h.request("GET", "/v1/credits", { apiKey: null, headers });
  const create = await h.request("POST", "/v1/audio/speech", {
    apiKey: null,
    headers,
    body: SPEECH,
    idempotencyKey: `auth-${++keyCounter}`,
  });
  return [read, create];
}

function expectError(response: ApiResponse, status: number, code: ErrorCode): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
  expect(response.body.error.type).toBe(ERROR_CATALOGUE[code].type);
  expect(response.body.error.retryable).toBe(false);
  expect(typeof response.body.error.message).toBe("string");
  expect(response.body.error.request_id).toBe(response.headers.get("x-request-id"));
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
}

describe("authentication refusals (SPEC.md Authentication)", () => {
  it("missing Authorization → 401 unauthorized", async () => {
    for (const r of await bothEndpoints(null)) expectError(r, 401, "unauthorized");
  });

  it("a non-Bearer scheme → 401 unauthorized", async () => {
    for (const r of await bothEndpoints("Basic xyz")) expectError(r, 401, "unauthorized");
  });

  it("a Bearer token that is not a key → 401 unauthorized", async () => {
    for (const r of await bothEndpoints("Bearer not-a-key")) expectError(r, 401, "unauthorized");
    // One character short of the key format is still malformed, not unknown.
    for (const r of await bothEndpoints(`Bearer sk_us_${secret32().slice(1)}`)) expectError(r, 401, "unauthorized");
    for (const r of await bothEndpoints("Bearer ")) expectError(r, 401, "unauthorized");
  });

  it("a well-formed key of another region → 400 api_key_region_mismatch", async () => {
    for (const r of await bothEndpoints(`Bearer sk_eu_${secret32()}`)) expectError(r, 400, "api_key_region_mismatch");
  });

  it("a well-formed unknown key of this region → 401 invalid_api_key", async () => {
    for (const r of await bothEndpoints(`Bearer sk_us_${secret32()}`)) expectError(r, 401, "invalid_api_key");
  });

  it("a revoked key → 401 invalid_api_key, while it worked just before", async () => {
    const t = await h.newTenant("10");
    expect((await h.request("GET", "/v1/credits", { apiKey: t.apiKey })).status).toBe(200);
    expect(await admin.revokeApiKey(h.core.db, t.keyId)).toBe(true);
    for (const r of await bothEndpoints(`Bearer ${t.apiKey}`)) expectError(r, 401, "invalid_api_key");
  });

  it("a disabled tenant → 403 tenant_disabled; re-enabling restores access", async () => {
    const t = await h.newTenant("10");
    expect((await h.request("GET", "/v1/credits", { apiKey: t.apiKey })).status).toBe(200);
    await admin.setTenantStatus(h.core.db, t.tenantId, "disabled");
    for (const r of await bothEndpoints(`Bearer ${t.apiKey}`)) expectError(r, 403, "tenant_disabled");
    await admin.setTenantStatus(h.core.db, t.tenantId, "active");
    expect((await h.request("GET", "/v1/credits", { apiKey: t.apiKey })).status).toBe(200);
  });

  it("a key limited to areas [tasks] → 403 forbidden outside them, 200 inside", async () => {
    const t = await h.newTenant("10", ["tasks"]);
    for (const r of await bothEndpoints(`Bearer ${t.apiKey}`)) expectError(r, 403, "forbidden");
    const list = await h.request("GET", "/v1/tasks", { apiKey: t.apiKey });
    expect(list.status).toBe(200);
    expect(list.body.object).toBe("list");
    expect(list.body.data).toEqual([]);
  });

  it("a request without credentials and with an invalid body → 401, not 422", async () => {
    const invalid = await h.request("POST", "/v1/audio/speech", {
      apiKey: null,
      body: { voice: "" },
      idempotencyKey: `auth-${++keyCounter}`,
    });
    expectError(invalid, 401, "unauthorized");
  });

  // Credentials are judged before the body is even parsed: an unauthenticated (or unpermitted) caller gets the
  // auth refusal, not body diagnostics.
  it("a request without credentials and with an unparseable body → 401, not 422", async () => {
    const malformed = await h.request("POST", "/v1/audio/speech", {
      apiKey: null,
      rawBody: "{not json",
      idempotencyKey: `auth-${++keyCounter}`,
    });
    expectError(malformed, 401, "unauthorized");
    const wrongType = await h.request("POST", "/v1/audio/speech", {
      apiKey: null,
      rawBody: "hello",
      headers: { "content-type": "text/plain" },
      idempotencyKey: `auth-${++keyCounter}`,
    });
    expectError(wrongType, 401, "unauthorized");
    const limited = await h.newTenant("10", ["tasks"]);
    const forbidden = await h.request("POST", "/v1/audio/speech", {
      apiKey: limited.apiKey,
      rawBody: "{not json",
      idempotencyKey: `auth-${++keyCounter}`,
    });
    expectError(forbidden, 403, "forbidden");
  });

  it("no refused request created a task; an accepted one does", async () => {
    expect(await taskCount()).toBe(0);
    const accepted = await h.request("POST", "/v1/audio/speech", { body: SPEECH, idempotencyKey: "auth-accepted" });
    expect(accepted.status).toBe(202);
    expect(await taskCount()).toBe(1);
  });
});
