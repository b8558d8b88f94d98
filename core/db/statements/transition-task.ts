import { sql } from "drizzle-orm";
import { transitionStatus, type TaskTransition } from "../task-state-machine.js";
import { taskAssignments, taskRowOf, type TaskChanges, type TaskRow } from "../task-rows.js";
import type { Executor } from "../client.js";

// Applies one transition of core/db/task-state-machine.ts to a task, with the changes it carries (never the status:
// the transition's own); returns the updated row, or null when the task was not in one of its `from` statuses any
// more (another process got there first).
export async function transitionTask(tx: Executor, taskId: string, transition: TaskTransition, changes: TaskChanges): Promise<TaskRow | null> {
  const status = transitionStatus(transition);
  const assignments = sql.join([status.assignment, ...taskAssignments(changes)], sql`, `);
  const rows = await tx.execute<Record<string, unknown>>(sql`update tasks set ${assignments} where id = ${taskId} and ${status.guard} returning *`);
  return rows[0] ? taskRowOf(rows[0]) : null;
}
