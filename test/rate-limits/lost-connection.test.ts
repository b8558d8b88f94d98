import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { isLostConnection } from "../../core/db/lost-connection.js";
import { createLogger } from "../../core/observability/logger.js";
import type { BucketStore, StoreAnswer } from "../../core/rate-limits/counter.js";
import { enforceRateLimit, isStoreOutage } from "../../core/rate-limits/limiter.js";
import { ServiceError } from "../../core/errors/index.js";
import { syncedCounter } from "../../core/rate-limits/synced-counts.js";

// Issue 26: a rate-limit count whose database connection is lost (its store has already asked once more on a
// fresh one, core/rate-limits/postgres-store.ts) does not fail its requests with 500. Issue 36: nor does it let
// them through uncounted: they are counted in the process meanwhile, from the store's last total on, each logged,
// so a burst during the outage is still limited; their hits reach the store with the next exchange. Any other
// failure still fails the request.

const SUBJECT = { tenantId: "ten_1", credential: { kind: "api_key" as const, id: "key_1" } };
const BUDGETS = { perKey: 2, perTenant: 100 };

// What a dropped session looks like by the time it reaches the limiter: drizzle's error around the driver's.
function lostConnection(): Error {
  const driver = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
  return new Error("Failed query: insert into rate_limit_counters …", { cause: driver });
}

// A store that fails the exchanges it is told to and otherwise counts like the real ones, recording what it was sent.
function scriptedStore(failures: (Error | "always")[]) {
  const totals = new Map<string, number>();
  const sent: Map<string, number>[] = [];
  const store: BucketStore = {
    async add(increments, tenantIds): Promise<StoreAnswer> {
      sent.push(new Map(increments));
      const failure = failures[0] === "always" ? lostConnection() : failures.shift();
      if (failure instanceof Error) throw failure;
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
    rateLimits: syncedCounter(store, 0, { windowSeconds: 60, ...BUDGETS }, isStoreOutage),
    log: createLogger({ logLevel: "warn" }, { process: "test" }, destination),
    config: { rateLimits: { store: "postgres" as const, redisUrl: null, windowSeconds: 60, ...BUDGETS, syncMs: 0 } },
  };
  return { enforce: () => enforceRateLimit(core, SUBJECT), lines, close: () => core.rateLimits.close() };
}

describe("a rate-limit count whose connection was lost", () => {
  it("counts the request in the process, logs it, and sends its hit with the next exchange", async () => {
    const { store, sent } = scriptedStore([lostConnection()]);
    const l = limiter(store);
    try {
      expect(await l.enforce()).toMatchObject({ "X-RateLimit-Limit": "2", "X-RateLimit-Remaining": "1" });
      expect(l.lines).toEqual([
        expect.objectContaining({ level: "warn", tenant_id: "ten_1", msg: "rate limit counted in this process only: the database connection was lost" }),
      ]);
      // The next request's exchange carries the first request's hit too: the budget of 2 is spent by it.
      expect((await l.enforce())["X-RateLimit-Remaining"]).toBe("0");
      expect(sent.at(-1)?.get("key:key_1")).toBe(2);
      await expect(l.enforce()).rejects.toMatchObject({ code: "rate_limited" });
    } finally {
      await l.close();
    }
  });

  it("limits a burst during an outage: 429 with X-RateLimit-* and Retry-After past the budget, each request logged", async () => {
    const { store } = scriptedStore(["always"]);
    const l = limiter(store);
    try {
      const answers = await Promise.allSettled(Array.from({ length: 5 }, () => l.enforce()));
      expect(answers.filter((a) => a.status === "fulfilled")).toHaveLength(2);
      const refused = answers.filter((a): a is PromiseRejectedResult => a.status === "rejected").map((a) => a.reason as ServiceError);
      expect(refused).toHaveLength(3);
      for (const error of refused) {
        expect(error.code).toBe("rate_limited");
        expect(error.headers).toMatchObject({ "X-RateLimit-Limit": "2", "X-RateLimit-Remaining": "0", "Retry-After": expect.stringMatching(/^\d+$/) });
      }
      // One at a time afterwards, each its own failed exchange: still refused, the count carried on.
      await expect(l.enforce()).rejects.toMatchObject({ code: "rate_limited" });
      expect(l.lines).toHaveLength(6);
      for (const line of l.lines) expect(line).toMatchObject({ level: "warn", msg: "rate limit counted in this process only: the database connection was lost" });
    } finally {
      await l.close().catch(() => {});
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
