import { sql } from "drizzle-orm";
import type { Db } from "../client.js";
import { text } from "./row-parsing.js";

export interface DueArtifact {
  id: string;
  storageKey: string;
}

const STATEMENT = "due-artifacts";

// Retention's batch (core/artifacts/retention.ts): the oldest artifacts not yet expired that are older than their
// tenant's retention (its own in tenant_retention, else `defaultDays`), at most `limit`. The first bound, the
// shortest retention of any tenant, is what each row's own bound implies, but unlike it a constant: the scan of
// artifacts_unexpired_created_idx stops there instead of walking every unexpired artifact to find none due (on a
// year of 1,000,000 tasks, 57,000 rows read a minute for nothing).
export async function dueArtifacts(db: Db, now: Date, defaultDays: number, limit: number): Promise<DueArtifact[]> {
  const rows = await db.execute<Record<string, unknown>>(sql`
    select a.id, a.storage_key
      from artifacts a
      left join tenant_retention r on r.tenant_id = a.tenant_id
     where a.expired_at is null
       and a.created_at < ${now.toISOString()}::timestamptz
             - make_interval(days => least(${defaultDays}, (select min(artifact_days) from tenant_retention)))
       and a.created_at < ${now.toISOString()}::timestamptz - make_interval(days => coalesce(r.artifact_days, ${defaultDays}))
     order by a.created_at
     limit ${limit}`);
  return rows.map((row) => ({ id: text(row, "id", STATEMENT), storageKey: text(row, "storage_key", STATEMENT) }));
}
