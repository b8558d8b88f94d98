import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCore, loadConfig, type Core } from "../../core/index.js";
import { listenRest, startHarness, type Harness } from "../support/harness.js";
import { tenantWithLimits } from "./support.js";

// Each server process counts its requests itself and meets the shared store at least every RATE_LIMIT_SYNC_MS
// (core/rate-limits/synced-counts.ts): exact within a process, and across processes off by at most what the
// others accepted within that time. Both stores; tests/rate-limits/stores.test.ts holds the exact mode (0).
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
// Long enough that a test's steps fall within one sync period on a loaded machine.
const SYNC_MS = 3000;

describe.each<{ store: string; env: Record<string, string> }>([
  { store: "postgres", env: {} },
  { store: "redis", env: { RATE_LIMIT_STORE: "redis", REDIS_URL } },
])("counted in this process and synced with $store", ({ env }) => {
  let h: Harness;
  let core: Core;
  let second: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    h = await startHarness({ env: { ...env, RATE_LIMIT_SYNC_MS: String(SYNC_MS) } });
    core = createCore(loadConfig(h.env), { dbPoolSize: 2 });
    second = await listenRest(core);
  });
  afterAll(async () => {
    await second?.close();
    await core?.close();
    await h?.close();
  });

  const viaSecond = (apiKey: string) => fetch(`${second.url}/v1/tasks`, { headers: { authorization: `Bearer ${apiKey}` } });

  it("allows exactly the budget of concurrent requests on one process, each remainder answered once", async () => {
    const budget = 40;
    const { apiKey } = await tenantWithLimits(h, { perKey: budget });
    const answers = await Promise.all(Array.from({ length: 100 }, () => h.request("GET", "/v1/tasks", { apiKey })));
    const allowed = answers.filter((a) => a.status === 200);
    expect(allowed).toHaveLength(budget);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(100 - budget);
    expect(allowed.map((a) => Number(a.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: budget }, (_, i) => i),
    );
  });

  it("lets another process go over the budget by its own requests within the sync time, and not after it", async () => {
    const { apiKey } = await tenantWithLimits(h, { perKey: 3 });
    // The second process learns the count (1 of 3) and may answer from it for SYNC_MS.
    expect((await viaSecond(apiKey)).headers.get("x-ratelimit-remaining")).toBe("2");
    const startedAt = Date.now();
    const first = await h.request("GET", "/v1/tasks", { apiKey });
    const last = await h.request("GET", "/v1/tasks", { apiKey });
    expect([first.status, last.status]).toEqual([200, 200]);
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
    const stale = await viaSecond(apiKey);
    if (Date.now() - startedAt < SYNC_MS) {
      // The overshoot the setting allows: one request, answered from what the second process knew.
      expect(stale.status).toBe(200);
      expect(stale.headers.get("x-ratelimit-remaining")).toBe("1");
    }
    await new Promise((resolve) => setTimeout(resolve, SYNC_MS));
    const synced = await viaSecond(apiKey);
    expect(synced.status).toBe(429);
    expect(synced.headers.get("x-ratelimit-remaining")).toBe("0");
  });
});
