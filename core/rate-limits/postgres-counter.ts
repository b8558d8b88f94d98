import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { GroupCommit } from "../db/group-commit.js";
import { bucketsOf, type RateLimitSubject, type WindowCount } from "./decision.js";
import type { RateLimitCounter, RateLimitDefaults } from "./counter.js";
import { budgetsOf } from "./tenant-limits.js";

interface BucketCount {
  hits: number;
  resetMs: number;
}

interface CountedGroup {
  buckets: Map<string, BucketCount>;
  budgets: Map<string, { perKey: number | null; perTenant: number | null }>;
}

// One statement per group of requests (core/db/group-commit.ts): the requests that arrive while the previous
// statement runs are counted together, each bucket once, by how many of them it has. Counts stay exact: the
// group's requests take the bucket's hits one after another, in the order they arrived. Each process has at most
// one such statement running, and every statement locks its buckets in the same (sorted) order, so the hot rows
// of a busy tenant are updated once per group, never waited for by the process' own requests, and never
// deadlocked across processes. Time is the database's, which every server process shares; the table is
// unlogged, so its commit waits for no flush.
async function countGroup(db: Db, windowSeconds: number, subjects: readonly RateLimitSubject[]): Promise<CountedGroup> {
  const increments = new Map<string, number>();
  for (const subject of subjects) {
    const { credential, tenant } = bucketsOf(subject);
    increments.set(credential, (increments.get(credential) ?? 0) + 1);
    increments.set(tenant, (increments.get(tenant) ?? 0) + 1);
  }
  const input = [...increments].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([bucket, n]) => ({ bucket, n }));
  const tenantIds = [...new Set(subjects.map((s) => s.tenantId))];
  const window = sql`make_interval(secs => ${windowSeconds}::int)`;
  const rows = await db.execute<{ counts: { bucket: string; hits: number; reset_ms: number }[]; budgets: { tenant_id: string; per_key: number | null; per_tenant: number | null }[] | null }>(sql`
    with counted as (
      insert into rate_limit_counters as counter (bucket, window_start, hits)
      select b.bucket, now(), b.n from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as b(bucket text, n int)
      order by b.bucket
      on conflict (bucket) do update set
        hits = case when counter.window_start > now() - ${window} then counter.hits + excluded.hits else excluded.hits end,
        window_start = case when counter.window_start > now() - ${window} then counter.window_start else now() end
      returning counter.bucket, counter.hits,
        ceil(extract(epoch from counter.window_start + ${window} - now()) * 1000)::int as reset_ms
    )
    select
      (select jsonb_agg(jsonb_build_object('bucket', bucket, 'hits', hits, 'reset_ms', reset_ms)) from counted) as counts,
      (select jsonb_agg(jsonb_build_object('tenant_id', tenant_id, 'per_key', per_key, 'per_tenant', per_tenant))
         from tenant_rate_limits
        where tenant_id = any(array(select jsonb_array_elements_text(${JSON.stringify(tenantIds)}::jsonb)))) as budgets`);
  const row = rows[0];
  if (!row) throw new Error("the rate-limit statement returned no row");
  // Hits as they stood before this group: each request of the group then takes the next one.
  const buckets = new Map(row.counts.map((c) => [c.bucket, { hits: c.hits - (increments.get(c.bucket) ?? 0), resetMs: c.reset_ms }]));
  const budgets = new Map((row.budgets ?? []).map((b) => [b.tenant_id, { perKey: b.per_key, perTenant: b.per_tenant }]));
  return { buckets, budgets };
}

function nextHit(buckets: Map<string, BucketCount>, bucket: string): BucketCount {
  const count = buckets.get(bucket);
  if (!count) throw new Error(`the rate-limit statement did not count ${bucket}`);
  count.hits += 1;
  return { hits: count.hits, resetMs: count.resetMs };
}

export function postgresCounter(db: Db, defaults: RateLimitDefaults): RateLimitCounter {
  const groups = new GroupCommit<RateLimitSubject, WindowCount>(async (subjects) => {
    const { buckets, budgets } = await countGroup(db, defaults.windowSeconds, subjects);
    return subjects.map((subject) => {
      const names = bucketsOf(subject);
      const limits = budgetsOf(defaults, budgets.get(subject.tenantId));
      return {
        credential: { limit: limits.perKey, ...nextHit(buckets, names.credential) },
        tenant: { limit: limits.perTenant, ...nextHit(buckets, names.tenant) },
      };
    });
  });
  return {
    count: (subject) => groups.submit(subject),
    close: () => groups.drained(),
  };
}
