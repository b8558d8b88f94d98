import { BatchedLookup } from "../db/batched-lookup.js";
import type { DirectSql } from "../db/client.js";
import { taskRowOf, type TaskRow } from "./task-rows.js";

// GET /v1/tasks/{id}, the read clients repeat most: the reads of one turn of the event loop share one prepared
// statement on the read connections (core/db/batched-lookup.ts), and each is answered its own row, if its tenant's.

type RawRow = Record<string, unknown>;
const lookups = new WeakMap<DirectSql, BatchedLookup<RawRow>>();

function lookupOn(reads: DirectSql): BatchedLookup<RawRow> {
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

export async function readTaskForTenant(reads: DirectSql, tenantId: string, taskId: string): Promise<TaskRow | null> {
  const raw = await lookupOn(reads).get(taskId);
  return raw && raw.tenant_id === tenantId ? taskRowOf(raw) : null;
}
