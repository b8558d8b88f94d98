import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { isLostConnection } from "../db/lost-connection.js";
import type { Logger } from "../observability/logger.js";
import type { RateLimitCounter } from "./counter.js";
import { decide, rateLimitedError, rateLimitHeaders, type RateLimitSubject } from "./decision.js";
import { postgresBucketStore } from "./postgres-store.js";
import { redisBucketStore } from "./redis-store.js";
import { RedisError } from "./resp-connection.js";
import { syncedCounter } from "./synced-counts.js";

export function createRateLimitCounter(config: Config, db: Db): RateLimitCounter {
  const { store, redisUrl, syncMs, ...defaults } = config.rateLimits;
  const shared = store === "redis" && redisUrl ? redisBucketStore(db, defaults, redisUrl) : postgresBucketStore(db, defaults);
  return syncedCounter(shared, syncMs, defaults, isStoreOutage);
}

// An unreachable Redis, and a Postgres connection lost twice over (the store asks once more on a fresh
// connection): the requests are then counted in this process (core/rate-limits/synced-counts.ts).
export function isStoreOutage(error: unknown): boolean {
  return error instanceof RedisError || isLostConnection(error);
}

// Counts one authenticated request against its credential's and its tenant's budgets. Allowed: the
// X-RateLimit-* headers to send with the answer. Refused: 429 rate_limited carrying them and Retry-After.
// The limiter protects the service; it must not take it down, nor stop protecting it while its store is away: in
// an outage of the store the count is this process's own, each such request logged, and decided as any other.
// Any other failure fails the request, as every other use of the database would.
export interface RateLimitParts {
  rateLimits: RateLimitCounter;
  log: Logger;
  config: Pick<Config, "rateLimits">;
}

export async function enforceRateLimit(core: RateLimitParts, subject: RateLimitSubject): Promise<Record<string, string>> {
  const count = await core.rateLimits.count(subject);
  if (count.unshared !== undefined) {
    const why = count.unshared instanceof RedisError ? "Redis is unavailable" : "the database connection was lost";
    core.log.warn({ err: count.unshared, tenant_id: subject.tenantId }, `rate limit counted in this process only: ${why}`);
  }
  const decision = decide(count);
  if (!decision.allowed) throw rateLimitedError(decision, core.config.rateLimits.windowSeconds);
  return rateLimitHeaders(decision);
}
