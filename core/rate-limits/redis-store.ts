import type { Db } from "../db/client.js";
import type { BucketStore, RateLimitDefaults, StoredCount, TenantBudgets } from "./counter.js";
import { RespConnection, RedisError, type RespValue } from "./resp-connection.js";
import { tenantBudgets } from "./tenant-limits.js";

// Every bucket of an exchange in one EVAL: each is a key whose first hits of a window set it to expire when the
// window ends (Redis' clock, shared by every server process); a key found without an expiry gets one. A bucket
// with no hits to add is only read: a key gone (its window ended) answers 0 hits and a window already over.
const ADD_SCRIPT = `
local window_ms = tonumber(ARGV[1])
local answer = {}
for i, key in ipairs(KEYS) do
  local added = tonumber(ARGV[i + 1])
  local hits
  local reset_ms
  if added == 0 then
    hits = tonumber(redis.call('GET', key) or '0')
    reset_ms = redis.call('PTTL', key)
    if reset_ms < 0 then reset_ms = 0 end
  else
    hits = redis.call('INCRBY', key, added)
    if hits == added then redis.call('PEXPIRE', key, window_ms) end
    reset_ms = redis.call('PTTL', key)
    if reset_ms < 0 then
      redis.call('PEXPIRE', key, window_ms)
      reset_ms = window_ms
    end
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

export function redisBucketStore(db: Db, defaults: RateLimitDefaults, redisUrl: string): BucketStore {
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
    async add(increments, tenantIds) {
      const entries = [...increments];
      const [budgets, reply] = await Promise.all([
        Promise.all(tenantIds.map(async (id) => [id, await budgetsOf(id)] as const)),
        connection.command(
          "EVAL",
          ADD_SCRIPT,
          entries.length,
          ...entries.map(([bucket]) => KEY_PREFIX + bucket),
          defaults.windowSeconds * 1000,
          ...entries.map(([, n]) => n),
        ),
      ]);
      const numbers = integers(reply, entries.length * 2);
      const buckets = new Map<string, StoredCount>(
        entries.map(([bucket], i) => [bucket, { hits: numbers[2 * i] as number, resetMs: numbers[2 * i + 1] as number }]),
      );
      return { buckets, budgets: new Map(budgets) };
    },
    async close() {
      connection.close();
    },
  };
}

function integers(reply: RespValue, length: number): number[] {
  if (!Array.isArray(reply) || reply.length !== length || !reply.every((value) => typeof value === "number")) {
    throw new RedisError(`unexpected answer from the rate-limit script: ${JSON.stringify(reply)}`);
  }
  return reply as number[];
}
