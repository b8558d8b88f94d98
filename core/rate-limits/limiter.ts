import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { isLostConnection } from "../db/lost-connection.js";
import type { Logger } from "../observability/logger.js";
import type { RateLimitCounter } from "./counter.js";
import { decide, rateLimitedError, rateLimitHeaders, type RateLimitSubject, type WindowCount } from "./decision.js";
import { postgresBucketStore } from "./postgres-store.js";
import { redisBucketStore } from "./redis-store.js";
import { RedisError } from "./resp-connection.js";
import { syncedCounter } from "./synced-counts.js";

export function createRateLimitCounter(config: Config, db: Db): RateLimitCounter {
  const { store, redisUrl, syncMs, ...defaults } = config.rateLimits;
  const shared = store === "redis" && redisUrl ? redisBucketStore(db, defaults, redisUrl) : postgresBucketStore(db, defaults);
  return syncedCounter(shared, syncMs);
}

// Counts one authenticated request against its credential's and its tenant's budgets. Allowed: the
// X-RateLimit-* headers to send with the answer. Refused: 429 rate_limited carrying them and Retry-After.
// The limiter protects the service; it must not take it down. An unreachable Redis, and a Postgres connection lost
// twice over (the store asks once more on a fresh connection), let the requests of that exchange through uncounted
// and without headers, each logged; any other failure fails the request, as every other use of the database would.
export interface RateLimitParts {
  rateLimits: RateLimitCounter;
  log: Logger;
  config: Pick<Config, "rateLimits">;
}

export async function enforceRateLimit(core: RateLimitParts, subject: RateLimitSubject): Promise<Record<string, string>> {
  let count: WindowCount;
  try {
    count = await core.rateLimits.count(subject);
  } catch (error) {
    if (error instanceof RedisError) {
      core.log.warn({ err: error, tenant_id: subject.tenantId }, "rate limit not checked: Redis is unavailable");
      return {};
    }
    if (isLostConnection(error)) {
      core.log.warn({ err: error, tenant_id: subject.tenantId }, "rate limit not checked: the database connection was lost");
      return {};
    }
    throw error;
  }
  const decision = decide(count);
  if (!decision.allowed) throw rateLimitedError(decision, core.config.rateLimits.windowSeconds);
  return rateLimitHeaders(decision);
}
