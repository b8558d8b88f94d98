import type { Db } from "../db/client.js";
import { bucketsOf, type RateLimitSubject, type WindowCount } from "./decision.js";
import type { RateLimitCounter, RateLimitDefaults } from "./counter.js";
import { RespConnection, RedisError, type RespValue } from "./resp-connection.js";
import { tenantBudgets, type TenantBudgets } from "./tenant-limits.js";

// Both counters in one EVAL: each is a key whose first request of a window sets it to expire when the window
// ends (Redis' clock, shared by every server process); a key found without an expiry gets one.
const COUNT_SCRIPT = `
local window_ms = tonumber(ARGV[1])
local answer = {}
for i, key in ipairs(KEYS) do
  local hits = redis.call('INCR', key)
  if hits == 1 then redis.call('PEXPIRE', key, window_ms) end
  local reset_ms = redis.call('PTTL', key)
  if reset_ms < 0 then
    redis.call('PEXPIRE', key, window_ms)
    reset_ms = window_ms
  end
  answer[2 * i - 1] = hits
  answer[2 * i] = reset_ms
end
return answer`;

const KEY_PREFIX = "svc:rate:";

// A tenant's own budgets live in Postgres; with the Redis store they are read from there at most once per this
// long per process, so a change made with `svc tenant limits` takes effect within it.
export const TENANT_LIMITS_CACHE_MS = 10_000;
const CACHE_MAX_TENANTS = 10_000;

export function redisCounter(db: Db, defaults: RateLimitDefaults, redisUrl: string): RateLimitCounter {
  const connection = new RespConnection(new URL(redisUrl), 2000);
  const cache = new Map<string, { budgets: Promise<TenantBudgets>; expiresAt: number }>();
  const budgetsOf = (tenantId: string): Promise<TenantBudgets> => {
    const now = Date.now();
    const cached = cache.get(tenantId);
    if (cached && cached.expiresAt > now) return cached.budgets;
    if (cache.size >= CACHE_MAX_TENANTS) cache.clear();
    const budgets = tenantBudgets(db, defaults, tenantId);
    cache.set(tenantId, { budgets, expiresAt: now + TENANT_LIMITS_CACHE_MS });
    budgets.catch(() => cache.delete(tenantId));
    return budgets;
  };
  return {
    async count(subject: RateLimitSubject): Promise<WindowCount> {
      const buckets = bucketsOf(subject);
      const [budgets, reply] = await Promise.all([
        budgetsOf(subject.tenantId),
        connection.command("EVAL", COUNT_SCRIPT, 2, KEY_PREFIX + buckets.credential, KEY_PREFIX + buckets.tenant, defaults.windowSeconds * 1000),
      ]);
      const [credentialHits, credentialResetMs, tenantHits, tenantResetMs] = integers(reply);
      return {
        credential: { limit: budgets.perKey, hits: credentialHits, resetMs: credentialResetMs },
        tenant: { limit: budgets.perTenant, hits: tenantHits, resetMs: tenantResetMs },
      };
    },
    async close() {
      connection.close();
    },
  };
}

function integers(reply: RespValue): [number, number, number, number] {
  if (!Array.isArray(reply) || reply.length !== 4 || !reply.every((value) => typeof value === "number")) {
    throw new RedisError(`unexpected answer from the rate-limit script: ${JSON.stringify(reply)}`);
  }
  return reply as [number, number, number, number];
}
