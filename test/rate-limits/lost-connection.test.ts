import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { isLostConnection } from "../../core/db/lost-connection.js";
import { createLogger } from "../../core/observability/logger.js";
import type { BucketStore, StoreAnswer } from "../../core/rate-limits/counter.js";
import { enforceRateLimit } from "../../core/rate-limits/limiter.js";
import { syncedCounter } from "../../core/rate-limits/synced-counts.js";

// Issue 26: a rate-limit count whose database connection is lost (its store has already asked once more on a
// fresh one, core/rate-limits/postgres-store.ts) lets its requests through uncounted, logged, instead of failing
// them with 500; their hits are counted with the next exchange, so what they overshoot is charged to the budget
// as soon as the store answers again. Any other failure still fails the request.

const SUBJECT = { tenantId: "ten_1", credential: { kind: "api_key" as const, id: "key_1" } };
const BUDGETS = { perKey: 2, perTenant: 100 };

// What a dropped session looks like by the time it reaches the limiter: drizzle's error around the driver's.
function lostConnection(): Error {
  const driver = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
  return new Error("Failed query: insert into rate_limit_counters …", { cause: driver });
}

// A store that fails the exchanges it is told to and otherwise counts like the real ones, recording what it was sent.
function scriptedStore(failures: Error[]) {
  const totals = new Map<string, number>();
  const sent: Map<string, number>[] = [];
  const store: BucketStore = {
    async add(increments, tenantIds): Promise<StoreAnswer> {
      sent.push(new Map(increments));
      const failure = failures.shift();
      if (failure) throw failure;
      for (const [bucket, n] of increments) totals.set(bucket, (totals.get(bucket) ?? 0) + n);
      return {
        buckets: new Map([...increments.keys()].map((bucket) => [bucket, { hits: totals.get(bucket) ?? 0, resetMs: 60_000 }])),
        budgets: new Map(tenantIds.map((id) => [id, BUDGETS])),
      };
    },
    close: async () => {},
  };
  return { store, sent };
}

function limiter(store: BucketStore) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const core = {
    rateLimits: syncedCounter(store, 0),
    log: createLogger({ logLevel: "warn" }, { process: "test" }, destination),
    config: { rateLimits: { store: "postgres" as const, redisUrl: null, windowSeconds: 60, ...BUDGETS, syncMs: 0 } },
  };
  return { enforce: () => enforceRateLimit(core, SUBJECT), lines, close: () => core.rateLimits.close() };
}

describe("a rate-limit count whose connection was lost", () => {
  it("lets the request through without headers, logs it, and counts its hit with the next exchange", async () => {
    const { store, sent } = scriptedStore([lostConnection()]);
    const l = limiter(store);
    try {
      expect(await l.enforce()).toEqual({});
      expect(l.lines).toEqual([
        expect.objectContaining({ level: "warn", tenant_id: "ten_1", msg: "rate limit not checked: the database connection was lost" }),
      ]);
      // The next request's exchange carries the first request's hit too: the budget of 2 is spent by it.
      expect((await l.enforce())["X-RateLimit-Remaining"]).toBe("0");
      expect(sent.at(-1)?.get("key:key_1")).toBe(2);
      await expect(l.enforce()).rejects.toMatchObject({ code: "rate_limited" });
    } finally {
      await l.close();
    }
  });

  it("still fails a request for any other failure of the store", async () => {
    const broken = Object.assign(new Error("relation \"rate_limit_counters\" does not exist"), { code: "42P01" });
    const l = limiter(scriptedStore([broken]).store);
    try {
      await expect(l.enforce()).rejects.toBe(broken);
      expect(l.lines).toEqual([]);
    } finally {
      await l.close();
    }
  });
});

describe("a lost connection", () => {
  it("is a session the server ended or a socket that died, wrapped or not, and not a client ended on purpose", () => {
    expect(isLostConnection(lostConnection())).toBe(true);
    for (const code of ["CONNECTION_CLOSED", "ECONNRESET", "ECONNREFUSED", "57P01", "57P03", "08006"]) {
      expect(isLostConnection(Object.assign(new Error(code), { code })), code).toBe(true);
    }
    for (const code of ["CONNECTION_ENDED", "CONNECTION_DESTROYED", "23505", "40001", "57014"]) {
      expect(isLostConnection(Object.assign(new Error(code), { code })), code).toBe(false);
    }
    expect(isLostConnection(new Error("no code"))).toBe(false);
  });
});
