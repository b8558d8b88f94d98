import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { retryOnLostConnection } from "../db/lost-connection.js";
import type { BucketStore, RateLimitDefaults, StoredCount, TenantBudgets } from "./counter.js";
import { budgetsOf } from "./tenant-limits.js";

// The counts in an unlogged table of the service's database, so a commit waits for no flush. One statement per
// exchange adds each bucket's hits (a bucket with none to add is only read: nothing opens its window) and reads
// the tenants' own budgets. Every statement locks its buckets in the same (sorted) order, so the hot rows of a busy
// tenant are never deadlocked across processes. Time is the database's, which every server process shares. A
// statement whose connection was lost is sent once more: were its first run committed with only the answer lost,
// its hits count twice, which errs towards refusing.
export function postgresBucketStore(db: Db, defaults: RateLimitDefaults): BucketStore {
  const window = sql`make_interval(secs => ${defaults.windowSeconds}::int)`;
  return {
    async add(increments, tenantIds) {
      const input = [...increments].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([bucket, n]) => ({ bucket, n }));
      const rows = await retryOnLostConnection(() => db.execute<{
        counts: { bucket: string; hits: number; reset_ms: number }[] | null;
        budgets: { tenant_id: string; per_key: number | null; per_tenant: number | null }[] | null;
      }>(sql`
        with input as (
          select b.bucket, b.n from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as b(bucket text, n int)
        ), counted as (
          insert into rate_limit_counters as counter (bucket, window_start, hits)
          select bucket, now(), n from input where n > 0
          order by bucket
          on conflict (bucket) do update set
            hits = case when counter.window_start > now() - ${window} then counter.hits + excluded.hits else excluded.hits end,
            window_start = case when counter.window_start > now() - ${window} then counter.window_start else now() end
          returning counter.bucket, counter.hits,
            ceil(extract(epoch from counter.window_start + ${window} - now()) * 1000)::int as reset_ms
        ), peeked as (
          select c.bucket, c.hits, ceil(extract(epoch from c.window_start + ${window} - now()) * 1000)::int as reset_ms
            from rate_limit_counters c join input i on i.bucket = c.bucket and i.n = 0
        )
        select
          (select jsonb_agg(jsonb_build_object('bucket', bucket, 'hits', hits, 'reset_ms', reset_ms))
             from (select * from counted union all select * from peeked) answered) as counts,
          (select jsonb_agg(jsonb_build_object('tenant_id', tenant_id, 'per_key', per_key, 'per_tenant', per_tenant))
             from tenant_rate_limits
            where tenant_id = any(array(select jsonb_array_elements_text(${JSON.stringify(tenantIds)}::jsonb)))) as budgets`));
      const row = rows[0];
      if (!row) throw new Error("the rate-limit statement returned no row");
      const buckets = new Map<string, StoredCount>((row.counts ?? []).map((c) => [c.bucket, { hits: c.hits, resetMs: c.reset_ms }]));
      const own = new Map((row.budgets ?? []).map((b) => [b.tenant_id, { perKey: b.per_key, perTenant: b.per_tenant }]));
      const budgets = new Map<string, TenantBudgets>(tenantIds.map((id) => [id, budgetsOf(defaults, own.get(id))]));
      return { buckets, budgets };
    },
    close: async () => {},
  };
}
