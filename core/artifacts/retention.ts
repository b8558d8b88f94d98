import { sql } from "drizzle-orm";
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import { inBoundedBatches } from "../db/bounded-batches.js";
import type { Db } from "../db/client.js";
import { dropInlineMedia } from "../db/statements/drop-inline-media.js";
import { dueArtifacts } from "../db/statements/due-artifacts.js";
import { markArtifactsExpired } from "../db/statements/mark-artifacts-expired.js";
import { ServiceError } from "../errors/index.js";
import { EXPIRED_ARTIFACT } from "../errors/catalogue.js";
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
  const due = await dueArtifacts(core.db, now, core.config.artifactRetentionDays, core.config.artifactSweepBatchSize);
  if (due.length === 0) return 0;
  for (let i = 0; i < due.length; i += DELETIONS_AT_ONCE) {
    await Promise.all(due.slice(i, i + DELETIONS_AT_ONCE).map((artifact) => core.artifacts.delete(artifact.storageKey)));
  }
  await markArtifactsExpired(core.db, due.map((artifact) => artifact.id), now);
  return due.length;
}

// The data URIs of tasks past their tenant's retention that no worker stored, a batch at a time.
const dropInlineMediaBatch = (core: RetentionRuntime) =>
  dropInlineMedia(core.db, core.clock(), core.config.artifactRetentionDays, core.config.artifactSweepBatchSize);

// The sweep's share of retention: batches until one comes back short, at most BATCHES_PER_SWEEP of each kind.
export async function sweepRetention(core: RetentionRuntime): Promise<number> {
  const size = core.config.artifactSweepBatchSize;
  const expired = await inBoundedBatches(() => expireArtifactBatch(core), size, BATCHES_PER_SWEEP);
  await inBoundedBatches(() => dropInlineMediaBatch(core), size, BATCHES_PER_SWEEP);
  return expired;
}

// The answer for an artifact whose bytes retention deleted: 410 Gone with SPEC.md's artifact_not_found
// (EXPIRED_ARTIFACT), saying when and that reading the task again will not help.
export function artifactExpired(artifactId: string, expiredAt: Date, param?: string): ServiceError {
  return new ServiceError(EXPIRED_ARTIFACT.code, `Artifact ${artifactId} has expired: retention deleted its bytes at ${expiredAt.toISOString()}.`, {
    status: EXPIRED_ARTIFACT.http,
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
