import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "../db/client.js";
import { tasks } from "../db/schema/index.js";
import type { TaskRow } from "../tasks/repository.js";
import { SLOT_RELEASED } from "../tasks/tenant-slots.js";
import type { CallbackState, CallbackStatus } from "./state.js";

// The first state of a task's callback, written once when the task ends.
export async function startCallbackState(tx: Executor, taskId: string, state: CallbackState): Promise<TaskRow | null> {
  const rows = await tx
    .update(tasks)
    .set({ callbackState: state })
    .where(and(eq(tasks.id, taskId), isNull(tasks.callbackState)))
    .returning();
  return rows[0] ?? null;
}

// Replaces the callback state only if it still has the attempt count and one of the statuses the writer read, so
// a duplicate job, or a job racing a redelivery request, never records an attempt twice. Null when it changed.
// A recorded attempt is a delivery's end: the worker slot it held (core/tasks/tenant-slots.ts) goes back with it.
export async function replaceCallbackState(
  tx: Executor,
  taskId: string,
  expected: { attemptCount: number; statuses: readonly CallbackStatus[] },
  next: CallbackState,
): Promise<TaskRow | null> {
  const rows = await tx
    .update(tasks)
    .set({ callbackState: next, ...SLOT_RELEASED })
    .where(
      and(
        eq(tasks.id, taskId),
        sql`(${tasks.callbackState}->>'attempt_count')::int = ${expected.attemptCount}`,
        inArray(sql`${tasks.callbackState}->>'status'`, [...expected.statuses]),
      ),
    )
    .returning();
  return rows[0] ?? null;
}
