import type { DirectSql } from "../db/client.js";
import { taskRowOf, type TaskRow } from "./task-rows.js";

// GET /v1/tasks/{id}, the read clients repeat most: one prepared statement on the read connections (no query to
// build, no plan to make per request).

export async function readTaskForTenant(reads: DirectSql, tenantId: string, taskId: string): Promise<TaskRow | null> {
  const rows = await reads`select * from tasks where id = ${taskId} and tenant_id = ${tenantId}`;
  const raw = rows[0];
  return raw ? taskRowOf(raw) : null;
}
