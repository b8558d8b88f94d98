import { sql } from "drizzle-orm";
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { ServiceError } from "../errors/index.js";
import type { ArtifactStore } from "./store.js";

// Retention: an artifact's bytes (uploads, stored inputs, task outputs) are deleted from the store once older than
// the tenant's retention (ARTIFACT_RETENTION_DAYS, or its own in tenant_retention), and so are the data URIs of
// tasks that old still waiting in task_inline_media. Rows stay: the artifact row, marked expired, lets its URL
// answer 410; the task row, marked too, lets its envelope say so; the ledger is never touched.

export interface RetentionRuntime {
  db: Db;
  clock: Clock;
  artifacts: ArtifactStore;
  config: Pick<Config, "artifactRetentionDays" | "artifactSweepBatchSize">;
}

// A sweep deletes at most this many batches, so one run of the sweep job stays short whatever the backlog; the
// next run (a minute later) goes on.
const BATCHES_PER_SWEEP = 10;
// Store deletions in flight at once within a batch.
const DELETIONS_AT_ONCE = 16;

// One batch: the oldest artifacts past their retention, at most artifactSweepBatchSize. Their bytes are deleted
// first and the rows marked after, each batch in its own short statements (no lock held across the deletions): a
// crash between the two leaves rows that the next batch deletes again (deleting a missing object is not an
// error), never bytes no row points at. Returns how many were expired.
export async function expireArtifactBatch(core: RetentionRuntime): Promise<number> {
  const now = core.clock();
  const due = await core.db.execute<{ id: string; storage_key: string }>(sql`
    select a.id, a.storage_key
      from artifacts a
      left join tenant_retention r on r.tenant_id = a.tenant_id
     where a.expired_at is null
       and a.created_at < ${now.toISOString()}::timestamptz - make_interval(days => coalesce(r.artifact_days, ${core.config.artifactRetentionDays}))
     order by a.created_at
     limit ${core.config.artifactSweepBatchSize}`);
  if (due.length === 0) return 0;
  for (let i = 0; i < due.length; i += DELETIONS_AT_ONCE) {
    await Promise.all(due.slice(i, i + DELETIONS_AT_ONCE).map((row) => core.artifacts.delete(row.storage_key)));
  }
  await core.db.execute(sql`
    with expired as (
      update artifacts set expired_at = ${now.toISOString()}
       where id in (select jsonb_array_elements_text(${JSON.stringify(due.map((row) => row.id))}::jsonb)) and expired_at is null
      returning task_id
    )
    update tasks set artifacts_expired_at = ${now.toISOString()}
     where id in (select task_id from expired where task_id is not null) and artifacts_expired_at is null`);
  return due.length;
}

// The data URIs of tasks past their tenant's retention that no worker stored (a task canceled while queued keeps
// them until then), a batch at a time.
async function dropInlineMediaBatch(core: RetentionRuntime): Promise<number> {
  const dropped = await core.db.execute(sql`
    delete from task_inline_media m
     using (
       select m.task_id, m.pointer
         from task_inline_media m
         join tasks t on t.id = m.task_id
         left join tenant_retention r on r.tenant_id = t.tenant_id
        where t.created_at < ${core.clock().toISOString()}::timestamptz - make_interval(days => coalesce(r.artifact_days, ${core.config.artifactRetentionDays}))
        limit ${core.config.artifactSweepBatchSize}
     ) due
     where m.task_id = due.task_id and m.pointer = due.pointer
    returning m.task_id`);
  return dropped.length;
}

// The sweep's share of retention: batches until one comes back short, at most BATCHES_PER_SWEEP of each kind.
export async function sweepRetention(core: RetentionRuntime): Promise<number> {
  let expired = 0;
  for (let batch = 0; batch < BATCHES_PER_SWEEP; batch++) {
    const count = await expireArtifactBatch(core);
    expired += count;
    if (count < core.config.artifactSweepBatchSize) break;
  }
  for (let batch = 0; batch < BATCHES_PER_SWEEP; batch++) {
    if ((await dropInlineMediaBatch(core)) < core.config.artifactSweepBatchSize) break;
  }
  return expired;
}

// The answer for an artifact whose bytes retention deleted: 410 Gone with SPEC.md's artifact_not_found (its list
// of codes is closed; docs/decisions.md, retention), saying when and that reading the task again will not help.
export function artifactExpired(artifactId: string, expiredAt: Date, param?: string): ServiceError {
  return new ServiceError("artifact_not_found", `Artifact ${artifactId} has expired: retention deleted its bytes at ${expiredAt.toISOString()}.`, {
    status: 410,
    ...(param === undefined ? {} : { param }),
    details: { artifact_id: artifactId, reason: "expired", expired_at: expiredAt.toISOString() },
  });
}

// Sets (or, with null, removes) a tenant's own retention in days.
export async function setTenantRetention(db: Db, tenantId: string, days: number | null): Promise<void> {
  if (days === null) {
    await db.execute(sql`delete from tenant_retention where tenant_id = ${tenantId}`);
    return;
  }
  await db.execute(sql`
    insert into tenant_retention (tenant_id, artifact_days) values (${tenantId}, ${days})
    on conflict (tenant_id) do update set artifact_days = excluded.artifact_days, updated_at = now()`);
}
