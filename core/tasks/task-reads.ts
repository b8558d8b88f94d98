import { BatchedLookup } from "../db/batched-lookup.js";
import type { ReadSql } from "../db/client.js";
import { taskRowOf, type TaskRow } from "./task-rows.js";

// The one way a task is read by id, outside the transactions that change it: GET /v1/tasks/{id} (the read clients
// repeat most), cancels, replays, artifact reads, and every job's first look at its task. The reads of one turn of
// the event loop share one prepared statement on the read connections (core/db/batched-lookup.ts); each is
// answered its own row (and, read for a tenant, only if it is that tenant's).

type RawRow = Record<string, unknown>;
const lookups = new WeakMap<ReadSql, BatchedLookup<RawRow>>();

function lookupOn(reads: ReadSql): BatchedLookup<RawRow> {
  let lookup = lookups.get(reads);
  if (!lookup) {
    lookup = new BatchedLookup(async (ids) => {
      const rows = await reads<RawRow[]>`select * from tasks where id = any(${ids}::text[])`;
      return new Map(rows.map((row) => [row.id as string, row]));
    });
    lookups.set(reads, lookup);
  }
  return lookup;
}

export async function readTask(reads: ReadSql, taskId: string): Promise<TaskRow | null> {
  const raw = await lookupOn(reads).get(taskId);
  return raw ? taskRowOf(raw) : null;
}

export async function readTaskForTenant(reads: ReadSql, tenantId: string, taskId: string): Promise<TaskRow | null> {
  const raw = await lookupOn(reads).get(taskId);
  return raw && raw.tenant_id === tenantId ? taskRowOf(raw) : null;
}
