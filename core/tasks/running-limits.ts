import { and, eq, sql } from "drizzle-orm";
import type { Db, Executor } from "../db/client.js";
import { apiKeys, runningLimits, tenants } from "../db/schema/index.js";
import { isVendorFamily } from "../vendor-families.js";

// An operator's limits beside the fair share of the workers (core/db/statements/start-tasks.ts, which reads them
// at every start, so a change holds from the next start on in every worker): at most `maxRunning` tasks running at
// once for one tenant, one API key or one vendor family, and a tenant's weight in the share.
export const LIMIT_SCOPES = ["tenant", "key", "family"] as const;
export type LimitScope = (typeof LIMIT_SCOPES)[number];

export interface RunningLimitChange {
  // undefined leaves the value as it is; null removes it.
  maxRunning?: number | null;
  weight?: number | null;
}

export interface RunningLimitView {
  scope: LimitScope;
  subject: string;
  max_running: number | null;
  weight: number | null;
  // Tasks of the subject running now (at the vendor included), and those holding a worker.
  running: number;
  holding_workers: number;
  queued: number;
}

async function subjectExists(db: Executor, scope: LimitScope, subject: string): Promise<boolean> {
  if (scope === "family") return isVendorFamily(subject);
  const rows =
    scope === "tenant"
      ? await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, subject))
      : await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, subject));
  return rows.length > 0;
}

// Sets, changes or removes (both values null) the limits of one subject; false when there is no such subject.
export async function setRunningLimit(db: Db, scope: LimitScope, subject: string, change: RunningLimitChange): Promise<boolean> {
  if (!(await subjectExists(db, scope, subject))) return false;
  if (change.weight !== undefined && change.weight !== null && scope !== "tenant") throw new Error("only a tenant has a weight");
  await db.transaction(async (tx) => {
    const where = and(eq(runningLimits.scope, scope), eq(runningLimits.subject, subject));
    const [current] = await tx.select().from(runningLimits).where(where).for("update");
    const maxRunning = change.maxRunning === undefined ? (current?.maxRunning ?? null) : change.maxRunning;
    const weight = change.weight === undefined ? (current?.weight ?? null) : change.weight;
    if (maxRunning === null && weight === null) {
      await tx.delete(runningLimits).where(where);
      return;
    }
    await tx
      .insert(runningLimits)
      .values({ scope, subject, maxRunning, weight })
      .onConflictDoUpdate({ target: [runningLimits.scope, runningLimits.subject], set: { maxRunning, weight, updatedAt: sql`now()` } });
  });
  return true;
}

// Every limit set, with what its subject runs, holds and has waiting now.
export async function listRunningLimits(db: Executor): Promise<RunningLimitView[]> {
  const rows = await db.execute<{ scope: LimitScope; subject: string; max_running: number | null; weight: number | null; running: number; holding_workers: number; queued: number }>(sql`
    select l.scope, l.subject, l.max_running, l.weight, counts.running, counts.holding_workers, counts.queued
    from running_limits as l
    cross join lateral (
      select count(*) filter (where t.status = 'running')::int as running,
             count(*) filter (where t.tenant_slot_until is not null)::int as holding_workers,
             count(*) filter (where t.status = 'queued')::int as queued
      from tasks as t
      where t.status in ('queued', 'running')
        and case l.scope when 'family' then t.provider_family = l.subject when 'key' then t.api_key_id = l.subject else t.tenant_id = l.subject end
    ) as counts
    order by l.scope, l.subject`);
  return [...rows];
}
