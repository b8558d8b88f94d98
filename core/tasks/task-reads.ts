import { BatchedLookup } from "../db/batched-lookup.js";
import type { ReadSql } from "../db/client.js";
import { readTasksById } from "../db/statements/read-tasks.js";
import type { TaskRow } from "../db/task-rows.js";

// The one way a task is read by id, outside the transactions that change it: GET /v1/tasks/{id} (the read clients
// repeat most), cancels, replays, artifact reads, and every job's first look at its task. The reads of one turn of
// the event loop share one prepared statement on the read connections (core/db/batched-lookup.ts,
// core/db/statements/read-tasks.ts); each is answered its own row (and, read for a tenant, only if it is that
// tenant's).

const lookups = new WeakMap<ReadSql, BatchedLookup<TaskRow>>();

function lookupOn(reads: ReadSql): BatchedLookup<TaskRow> {
  let lookup = lookups.get(reads);
  if (!lookup) {
    lookup = new BatchedLookup((ids) => readTasksById(reads, ids));
    lookups.set(reads, lookup);
  }
  return lookup;
}

export async function readTask(reads: ReadSql, taskId: string): Promise<TaskRow | null> {
  return (await lookupOn(reads).get(taskId)) ?? null;
}

export async function readTaskForTenant(reads: ReadSql, tenantId: string, taskId: string): Promise<TaskRow | null> {
  const row = await lookupOn(reads).get(taskId);
  return row && row.tenantId === tenantId ? row : null;
}
