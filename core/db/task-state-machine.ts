import { sql, type SQL } from "drizzle-orm";

export const OPEN_STATUSES = ["queued", "running"] as const;
export const TERMINAL_STATUSES = ["succeeded", "failed", "canceled"] as const;
export const TASK_STATUSES = [...OPEN_STATUSES, ...TERMINAL_STATUSES] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

// The status a task is created with, at admission (core/tasks/admitted-rows.ts); every later one is a
// transition's, below.
export const ADMITTED_STATUS = "queued" satisfies TaskStatus;

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

// The only assignments of a task's status, for the UPDATEs of core/db/statements/ that apply a transition
// (transition-task.ts, start-tasks.ts); test/project/architecture.test.ts finds no other. Each comes with the
// guard of the same transition, so a statement cannot set one transition's status under another's guard.

// `status = <to>`, and `status in (<from>)` for the statement's WHERE.
export function transitionStatus(transition: TaskTransition): { assignment: SQL; guard: SQL } {
  const { from, to } = TASK_TRANSITIONS[transition];
  return { assignment: sql`status = ${to}`, guard: sql`status in ${[...from]}` };
}

// A start that may be deferred: the tasks for which `started` holds reach start's `to`; the others (their tenant
// has no free slot) keep the status they have. The guard names the table, as the start statement's UPDATE reads
// other relations beside it.
export function startStatus(started: SQL): { assignment: SQL; guard: SQL } {
  const { from, to } = TASK_TRANSITIONS.start;
  return { assignment: sql`status = case when ${started} then ${to} else tasks.status end`, guard: sql`tasks.status in ${[...from]}` };
}
