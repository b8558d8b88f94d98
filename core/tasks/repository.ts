import { and, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../db/client.js";
import { tasks } from "../db/schema/index.js";
import type { TaskRow } from "../db/task-rows.js";

export type { TaskRow } from "../db/task-rows.js";

// Who a task belongs to and which request admitted it, without its (possibly large) input: what a log line needs.
export async function findTaskIdentity(tx: Executor, taskId: string): Promise<Pick<TaskRow, "id" | "tenantId" | "requestId"> | null> {
  const rows = await tx.select({ id: tasks.id, tenantId: tasks.tenantId, requestId: tasks.requestId }).from(tasks).where(eq(tasks.id, taskId)).limit(1);
  return rows[0] ?? null;
}

// Where a page of the list starts: after a task seen on the previous page (its creation time and id), or, for a
// cursor minted before the list ordered by creation time, after the task of that id.
export type TaskListPosition = { createdAt: Date; id: string } | { afterTaskId: string };

export interface TaskListFilter {
  tenantId: string;
  after?: TaskListPosition;
  status?: string;
  capability?: string;
  limit: number;
}

// Newest first by created_at; the id breaks ties (two tasks admitted in the same millisecond), so the order is
// total and a cursor (created_at, id) names one place in it however many tasks share a timestamp.
export async function listTasks(tx: Executor, filter: TaskListFilter): Promise<TaskRow[]> {
  const conditions = [eq(tasks.tenantId, filter.tenantId)];
  const after = filter.after;
  if (after && "id" in after) conditions.push(sql`(${tasks.createdAt}, ${tasks.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id})`);
  if (after && "afterTaskId" in after) {
    conditions.push(sql`(${tasks.createdAt}, ${tasks.id}) < (select t.created_at, t.id from tasks t where t.id = ${after.afterTaskId})`);
  }
  if (filter.status) conditions.push(eq(tasks.status, filter.status));
  if (filter.capability) conditions.push(eq(tasks.capability, filter.capability));
  return tx
    .select()
    .from(tasks)
    .where(and(...conditions))
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(filter.limit);
}
