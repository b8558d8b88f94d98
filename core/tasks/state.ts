import { sql } from "drizzle-orm";
import type { Executor } from "../db/client.js";
import { taskAssignments, taskRowOf, type TaskChanges, type TaskRow } from "./task-rows.js";

export const OPEN_STATUSES = ["queued", "running"] as const;
export const TERMINAL_STATUSES = ["succeeded", "failed", "canceled"] as const;
export const TASK_STATUSES = [...OPEN_STATUSES, ...TERMINAL_STATUSES] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

export function isTerminal(status: string): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

interface Transition {
  from: readonly TaskStatus[];
  to: TaskStatus;
}

// The task state machine: every change of a task row is one of these, named by what causes it, with the statuses
// it may leave and the one it reaches. Nothing leaves a terminal status, so a task ends exactly once however many
// jobs, sweeps and cancels race for it; the guard is the UPDATE's own `where status in (from)`.
export const TASK_TRANSITIONS = {
  // A job takes the task: queued, or running already when a worker died or a retry runs the job again.
  start: { from: OPEN_STATUSES, to: "running" },
  // Work goes on: the vendor's job reference, progress, a retry's attempt count, resolved media, a cancel request.
  advance: { from: ["running"], to: "running" },
  succeed: { from: OPEN_STATUSES, to: "succeeded" },
  fail: { from: OPEN_STATUSES, to: "failed" },
  // A cancel that stops the vendor's job first (the poll that sees the request), or a sweep's.
  cancel: { from: OPEN_STATUSES, to: "canceled" },
  // A queued task never reached a vendor: canceled on the spot, unless a worker took it meanwhile.
  cancelQueued: { from: ["queued"], to: "canceled" },
} as const satisfies Record<string, Transition>;

export type TaskTransition = keyof typeof TASK_TRANSITIONS;

// Changes a transition carries; the status is the transition's own.
export type TransitionChanges = Omit<TaskChanges, "status">;

// Applies one transition; returns the updated row, or null when the task was not in one of its `from` statuses
// any more (another process got there first).
export async function transitionTask(
  tx: Executor,
  taskId: string,
  transition: TaskTransition,
  changes: TransitionChanges,
): Promise<TaskRow | null> {
  const { from, to } = TASK_TRANSITIONS[transition];
  const rows = await tx.execute<Record<string, unknown>>(
    sql`update tasks set ${taskAssignments({ ...changes, status: to })} where id = ${taskId} and status in ${[...from]} returning *`,
  );
  return rows[0] ? taskRowOf(rows[0]) : null;
}
