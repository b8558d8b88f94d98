import { isTerminal, type getTask } from "../../core/index.js";

type TaskEnvelope = Awaited<ReturnType<typeof getTask>>;

export const TASK_VIEWS = ["summary", "full"] as const;
export type TaskView = (typeof TASK_VIEWS)[number];

// A decimal string of credits that is zero ("0.000000"), or a grant source that is none.
function isNothing(value: unknown): boolean {
  return value === "none" || (typeof value === "string" && /^0(\.0+)?$/.test(value));
}

// What an agent acts on, read on every poll: the status, progress while the task runs, the outcome (output with
// artifact links, or the error) and what it cost. Fields that say nothing are left out (progress once the task
// has ended, a null output or error, billing amounts of zero, an empty list of warnings); the full envelope
// (input echo, social, usage counters, callback state, links) is read with view "full". Every summary field has
// the same name and value as in the envelope.
export function taskSummary(task: TaskEnvelope) {
  const billing = Object.fromEntries(Object.entries((task.billing ?? {}) as Record<string, unknown>).filter(([, value]) => !isNothing(value)));
  return {
    object: task.object,
    task_id: task.task_id,
    status: task.status,
    capability: task.capability,
    model: task.model,
    resolved_model: task.resolved_model,
    ...(isTerminal(task.status) ? {} : { progress: task.progress }),
    ...(task.output ? { output: task.output } : {}),
    ...(task.error ? { error: task.error } : {}),
    ...(Array.isArray(task.warnings) && task.warnings.length > 0 ? { warnings: task.warnings } : {}),
    billing,
    created_at: task.created_at,
    ...(task.completed_at ? { completed_at: task.completed_at } : {}),
    ...(task.cancel_requested_at ? { cancel_requested_at: task.cancel_requested_at } : {}),
  };
}

export function taskInView(task: TaskEnvelope, view: TaskView): Record<string, unknown> {
  return view === "full" ? task : taskSummary(task);
}
