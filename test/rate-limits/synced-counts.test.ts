import postgres from "postgres";
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
    // The overshoot the setting allows: one request, answered from what the second process knew, unless its
    // exchange of a bucket kept fresh (every SYNC_MS / 2) told it the total meanwhile.
    if (Date.now() - startedAt < SYNC_MS && stale.status === 200) {
      expect(stale.headers.get("x-ratelimit-remaining")).toBe("1");
    }
    await new Promise((resolve) => setTimeout(resolve, SYNC_MS));
    const synced = await viaSecond(apiKey);
    expect(synced.status).toBe(429);
    expect(synced.headers.get("x-ratelimit-remaining")).toBe("0");
  });
});

// A client that asks every few seconds (a poll, an agent's next step) is answered from this process's count: its
// buckets go with every exchange while it is recent, so its next request finds them fresh instead of waiting a
// round trip to the store. Shown by holding the counters' table locked against writes: an exchange that adds hits
// waits for the lock, one that only reads does not.
describe("a bucket hit within the last seconds, kept fresh", () => {
  const SHORT_SYNC_MS = 200;
  let h: Harness;
  let locker: postgres.Sql;
  beforeAll(async () => {
    h = await startHarness({ env: { RATE_LIMIT_SYNC_MS: String(SHORT_SYNC_MS) } });
    locker = postgres(h.databaseUrl, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await locker?.end({ timeout: 5 });
    await h?.close();
  });

  // Resolves with the request's status, or "waiting" if it is not answered while the counters stay locked.
  async function answeredWhileLocked(apiKey: string): Promise<number | "waiting"> {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked: () => void = () => {};
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    const holding = locker.begin(async (tx) => {
      await tx`lock table rate_limit_counters in exclusive mode`;
      locked();
      await released;
    });
    await lockHeld;
    const request = h.request("GET", "/v1/tasks", { apiKey }).then((answer) => answer.status);
    const outcome = await Promise.race([request, new Promise<"waiting">((resolve) => setTimeout(() => resolve("waiting"), 2000))]);
    release();
    await holding;
    await request;
    return outcome;
  }

  it("answers a request seconds after the last one without waiting for the store", async () => {
    const { apiKey } = await tenantWithLimits(h, { perKey: 100 });
    expect((await h.request("GET", "/v1/tasks", { apiKey })).status).toBe(200);
    // Well past the sync time: without being kept fresh, the buckets would have to meet the store again.
    await new Promise((resolve) => setTimeout(resolve, SHORT_SYNC_MS * 5));
    expect(await answeredWhileLocked(apiKey)).toBe(200);
  });

  it("makes a client's first request wait for the store", async () => {
    const { apiKey } = await tenantWithLimits(h, { perKey: 100 });
    await h.request("GET", "/v1/tasks", { apiKey: (await tenantWithLimits(h, {})).apiKey });
    expect(await answeredWhileLocked(apiKey)).toBe("waiting");
  });
});
