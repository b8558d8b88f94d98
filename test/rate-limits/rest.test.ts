import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../core/index.js";
import { balance, countRows, listenRest, startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { tenantWithLimits } from "./support.js";

// Rate limits on the REST surface, counted in Postgres: budgets per API key and per tenant, shared by every
// server process; 429 rate_limited with Retry-After; X-RateLimit-* headers on every authenticated answer.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const speech = { voice: "en_female_aria", input: "Hello." };

function limitHeaders(response: ApiResponse) {
  return {
    limit: response.headers.get("x-ratelimit-limit"),
    remaining: response.headers.get("x-ratelimit-remaining"),
    reset: response.headers.get("x-ratelimit-reset"),
  };
}

function expectRateLimited(response: ApiResponse, scope: "api_key" | "tenant", limit: number) {
  expect(response.status, JSON.stringify(response.body)).toBe(429);
  expect(response.body.error).toMatchObject({
    code: "rate_limited",
    type: "rate_limit_error",
    retryable: true,
    details: { scope, limit, window_seconds: 60 },
  });
  const headers = limitHeaders(response);
  expect(headers.limit).toBe(String(limit));
  expect(headers.remaining).toBe("0");
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
  expect(headers.reset).toBe(String(retryAfter));
  expect(response.body.error.details.retry_after_seconds).toBe(retryAfter);
}


describe("X-RateLimit headers", () => {
  it("are on every answer to an authenticated request, errors included, and count down per request", async () => {
    const t = await h.newTenant("10");
    const first = await h.request("GET", "/v1/tasks", { apiKey: t.apiKey });
    const invalid = await h.request("POST", "/v1/audio/speech", { apiKey: t.apiKey, idempotencyKey: "k-invalid", body: { voice: 1 } });
    const missing = await h.request("GET", "/v1/tasks/task_unknown", { apiKey: t.apiKey });
    expect([first.status, invalid.status, missing.status]).toEqual([200, 422, 404]);
    // The key's budget is the smaller of the two by default (60000 against the tenant's 120000).
    expect([first, invalid, missing].map((r) => limitHeaders(r).limit)).toEqual(["60000", "60000", "60000"]);
    expect([first, invalid, missing].map((r) => limitHeaders(r).remaining)).toEqual(["59999", "59998", "59997"]);
    for (const response of [first, invalid, missing]) {
      const reset = Number(limitHeaders(response).reset);
      expect(Number.isInteger(reset) && reset >= 1 && reset <= 60, `reset ${reset}`).toBe(true);
      expect(response.headers.get("retry-after")).toBeNull();
    }
  });

  it("are not on refusals of unauthenticated requests, which are not counted", async () => {
    const anonymous = await h.request("GET", "/v1/tasks", { apiKey: null });
    const unknownKey = await h.request("GET", "/v1/tasks", { apiKey: "sk_us_00000000000000000000000000000000" });
    expect([anonymous.status, unknownKey.status]).toEqual([401, 401]);
    expect([limitHeaders(anonymous).limit, limitHeaders(unknownKey).limit]).toEqual([null, null]);
  });
});

describe("per API key", () => {
  it("refuses the request after the key's budget with 429 rate_limited, while another key of the tenant goes on", async () => {
    const t = await tenantWithLimits(h, { perKey: 3 }, 2);
    const [key1, key2] = t.apiKeys as [string, string];
    const allowed = [];
    for (let i = 0; i < 3; i++) allowed.push(await h.request("GET", "/v1/tasks", { apiKey: key1 }));
    expect(allowed.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(allowed.map((r) => limitHeaders(r).remaining)).toEqual(["2", "1", "0"]);
    expectRateLimited(await h.request("GET", "/v1/tasks", { apiKey: key1 }), "api_key", 3);
    expectRateLimited(await h.request("GET", "/v1/credits", { apiKey: key1 }), "api_key", 3);
    const other = await h.request("GET", "/v1/tasks", { apiKey: key2 });
    expect(other.status).toBe(200);
    expect(limitHeaders(other)).toMatchObject({ limit: "3", remaining: "2" });
  });

  it("creates nothing, holds no credits and leaves the Idempotency-Key free when it refuses a create", async () => {
    const t = await tenantWithLimits(h, { perKey: 1 }, 2);
    const [key1, key2] = t.apiKeys as [string, string];
    expect((await h.request("GET", "/v1/tasks", { apiKey: key1 })).status).toBe(200);
    const before = await balance(h, t.tenantId);
    const refused = await h.request("POST", "/v1/audio/speech", { apiKey: key1, idempotencyKey: "free-key", body: speech });
    expectRateLimited(refused, "api_key", 1);
    expect(await balance(h, t.tenantId)).toEqual(before);
    expect(await countRows(h, sql`select count(*)::int as n from tasks where tenant_id = ${t.tenantId}`)).toBe(0);
    const created = await h.request("POST", "/v1/audio/speech", { apiKey: key2, idempotencyKey: "free-key", body: speech });
    expect(created.status).toBe(202);
    expect(created.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("per tenant", () => {
  it("counts every key of the tenant together and names the tenant's budget when it refuses", async () => {
    const t = await tenantWithLimits(h, { perTenant: 4 }, 2);
    const [key1, key2] = t.apiKeys as [string, string];
    const statuses = [];
    for (const key of [key1, key2, key1, key2]) statuses.push((await h.request("GET", "/v1/tasks", { apiKey: key })).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expectRateLimited(await h.request("GET", "/v1/tasks", { apiKey: key2 }), "tenant", 4);
    expectRateLimited(await h.request("GET", "/v1/tasks", { apiKey: key1 }), "tenant", 4);
  });

  it("reports the budget with the least left while both allow", async () => {
    const t = await tenantWithLimits(h, { perKey: 10, perTenant: 12 }, 2);
    const [key1, key2] = t.apiKeys as [string, string];
    for (let i = 0; i < 5; i++) await h.request("GET", "/v1/tasks", { apiKey: key1 });
    // key2 has 9 left of its 10, the tenant 6 of its 12.
    expect(limitHeaders(await h.request("GET", "/v1/tasks", { apiKey: key2 }))).toMatchObject({ limit: "12", remaining: "6" });
  });

  it("leaves other tenants alone", async () => {
    const busy = await tenantWithLimits(h, { perTenant: 1 });
    const quiet = await h.newTenant("10");
    await h.request("GET", "/v1/tasks", { apiKey: busy.apiKeys[0] });
    expect((await h.request("GET", "/v1/tasks", { apiKey: busy.apiKeys[0] })).status).toBe(429);
    expect((await h.request("GET", "/v1/tasks", { apiKey: quiet.apiKey })).status).toBe(200);
  });
});

describe("shared by every server process", () => {
  let core: Core;
  let second: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    core = createCore(h.core.config, { dbPoolSize: 2 });
    second = await listenRest(core);
  });
  afterAll(async () => {
    await second?.close();
    await core?.close();
  });

  it("counts the requests two REST servers answer against one budget", async () => {
    const t = await tenantWithLimits(h, { perKey: 4 });
    const key = t.apiKeys[0] as string;
    const viaSecond = (path: string) => fetch(`${second.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    // Each process meets the shared count at least every RATE_LIMIT_SYNC_MS; waiting that long between the two
    // makes each see the other's requests.
    const synced = () => new Promise((resolve) => setTimeout(resolve, h.core.config.rateLimits.syncMs + 50));
    const answers = [];
    for (let i = 0; i < 4; i++) {
      if (i > 0) await synced();
      if (i % 2 === 0) answers.push((await h.request("GET", "/v1/tasks", { apiKey: key })).headers.get("x-ratelimit-remaining"));
      else answers.push((await viaSecond("/v1/tasks")).headers.get("x-ratelimit-remaining"));
    }
    await synced();
    expect(answers).toEqual(["3", "2", "1", "0"]);
    expect((await viaSecond("/v1/tasks")).status).toBe(429);
    await synced();
    expect((await h.request("GET", "/v1/tasks", { apiKey: key })).status).toBe(429);
  });
});
