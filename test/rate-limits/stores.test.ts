import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, createCore, loadConfig } from "../../core/index.js";
import { listenRest, startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { tenantWithLimits } from "./support.js";

// The same limits whichever store keeps the counters: Postgres (the default) or Redis (RATE_LIMIT_STORE=redis,
// spoken to over a plain socket). Windows short enough that a window's end is observed, and long enough that each
// test's requests fall in its first window on a loaded machine (a new tenant's window opens at its first request).
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const WINDOW_SECONDS = 5;

const remaining = (response: ApiResponse) => response.headers.get("x-ratelimit-remaining");

describe.each<{ store: string; env: Record<string, string> }>([
  { store: "postgres", env: {} },
  { store: "redis", env: { RATE_LIMIT_STORE: "redis", REDIS_URL } },
])("counted in $store", ({ env }) => {
  let h: Harness;
  let tenantId: string;
  let apiKey: string;
  beforeAll(async () => {
    // Every request meets the store (RATE_LIMIT_SYNC_MS=0): the stores' own exactness, across processes too.
    h = await startHarness({ env: { ...env, RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS), RATE_LIMIT_SYNC_MS: "0" } });
  });
  afterAll(async () => h?.close());


  it("refuses beyond the budget and allows again once the window has ended", async () => {
    ({ tenantId, apiKey } = await tenantWithLimits(h, { perKey: 2 }));
    const first = await h.request("GET", "/v1/tasks", { apiKey });
    const second = await h.request("GET", "/v1/tasks", { apiKey });
    const refused = await h.request("GET", "/v1/tasks", { apiKey });
    expect([first.status, second.status, refused.status]).toEqual([200, 200, 429]);
    expect([remaining(first), remaining(second), remaining(refused)]).toEqual(["1", "0", "0"]);
    expect(refused.body.error.code).toBe("rate_limited");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter >= 1 && retryAfter <= WINDOW_SECONDS).toBe(true);
    expect(refused.headers.get("x-ratelimit-reset")).toBe(String(retryAfter));

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    const renewed = await h.request("GET", "/v1/tasks", { apiKey });
    expect(renewed.status).toBe(200);
    expect(remaining(renewed)).toBe("1");
  });

  it("applies the tenant's budget across its keys", async () => {
    ({ tenantId, apiKey } = await tenantWithLimits(h, { perTenant: 3 }));
    const other = await admin.createApiKey(h.core.db, h.core.ids, h.core.config.region, tenantId);
    const statuses = [];
    for (const key of [apiKey, other.key, apiKey, other.key]) statuses.push((await h.request("GET", "/v1/tasks", { apiKey: key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("shares the counts between server processes", async () => {
    ({ tenantId, apiKey } = await tenantWithLimits(h, { perKey: 3 }));
    const core = createCore(loadConfig(h.env), { dbPoolSize: 1 });
    const second = await listenRest(core);
    try {
      const viaSecond = () => fetch(`${second.url}/v1/tasks`, { headers: { authorization: `Bearer ${apiKey}` } });
      const answers = [remaining(await h.request("GET", "/v1/tasks", { apiKey })), (await viaSecond()).headers.get("x-ratelimit-remaining")];
      answers.push(remaining(await h.request("GET", "/v1/tasks", { apiKey })));
      expect(answers).toEqual(["2", "1", "0"]);
      expect((await viaSecond()).status).toBe(429);
    } finally {
      await second.close();
      await core.close();
    }
  });

  it("counts concurrent requests on two server processes exactly: the budget allowed, each remainder answered once", async () => {
    const budget = 40;
    ({ tenantId, apiKey } = await tenantWithLimits(h, { perKey: budget }));
    const core = createCore(loadConfig(h.env), { dbPoolSize: 2 });
    const second = await listenRest(core);
    try {
      const viaSecond = () => fetch(`${second.url}/v1/tasks`, { headers: { authorization: `Bearer ${apiKey}` } });
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          i % 2 === 0
            ? h.request("GET", "/v1/tasks", { apiKey }).then((r) => ({ status: r.status, remaining: remaining(r) }))
            : viaSecond().then((r) => ({ status: r.status, remaining: r.headers.get("x-ratelimit-remaining") })),
        ),
      );
      const allowed = answers.filter((a) => a.status === 200);
      expect(allowed.length).toBe(budget);
      expect(answers.filter((a) => a.status === 429).length).toBe(100 - budget);
      expect(allowed.map((a) => Number(a.remaining)).sort((a, b) => a - b)).toEqual(Array.from({ length: budget }, (_, i) => i));
    } finally {
      await second.close();
      await core.close();
    }
  });
});

describe("with Redis out of reach", () => {
  let h: Harness;
  beforeAll(async () => {
    // A port nothing listens on: the limiter neither takes the service down nor stops limiting (issue 36); the
    // requests are counted in the process.
    h = await startHarness({ env: { RATE_LIMIT_STORE: "redis", REDIS_URL: "redis://127.0.0.1:1", RATE_LIMIT_PER_KEY: "3" } });
  });
  afterAll(async () => h?.close());

  it("answers from the process's own count, and refuses past the budget with Retry-After", async () => {
    for (const remaining of ["2", "1", "0"]) {
      const response = await h.request("GET", "/v1/tasks");
      expect(response.status).toBe(200);
      expect(response.headers.get("x-ratelimit-limit")).toBe("3");
      expect(response.headers.get("x-ratelimit-remaining")).toBe(remaining);
    }
    const refused = await h.request("GET", "/v1/tasks");
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
