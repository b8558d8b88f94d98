import { getTableColumns } from "drizzle-orm";
import type { DirectSql } from "../db/client.js";
import { tasks } from "../db/schema/index.js";
import type { TaskRow } from "./repository.js";

// GET /v1/tasks/{id}, the read clients repeat most: one prepared statement on the read connections (no query to
// build, no plan to make per request), its row mapped column by column as drizzle maps its own.

const COLUMNS = Object.entries(getTableColumns(tasks));

function taskRowOf(raw: Record<string, unknown>): TaskRow {
  const row: Record<string, unknown> = {};
  for (const [property, column] of COLUMNS) {
    const value = raw[column.name];
    row[property] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as TaskRow;
}

export async function readTaskForTenant(reads: DirectSql, tenantId: string, taskId: string): Promise<TaskRow | null> {
  const rows = await reads`select * from tasks where id = ${taskId} and tenant_id = ${tenantId}`;
  const raw = rows[0];
  return raw ? taskRowOf(raw) : null;
}
