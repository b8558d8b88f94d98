import type { getTask } from "../../core/index.js";

type TaskEnvelope = Awaited<ReturnType<typeof getTask>>;

export const TASK_VIEWS = ["summary", "full"] as const;
export type TaskView = (typeof TASK_VIEWS)[number];

// What an agent acts on: the status, progress, outcome (output with artifact links, or the error) and what it
// cost. The full envelope (input echo, social, usage counters, callback state, links) is five times larger and
// is read with view "full"; every summary field has the same name and value as in the envelope.
export function taskSummary(task: TaskEnvelope) {
  return {
    object: task.object,
    task_id: task.task_id,
    status: task.status,
    capability: task.capability,
    model: task.model,
    resolved_model: task.resolved_model,
    progress: task.progress,
    output: task.output,
    error: task.error,
    ...(Array.isArray(task.warnings) && task.warnings.length > 0 ? { warnings: task.warnings } : {}),
    billing: task.billing,
    created_at: task.created_at,
    completed_at: task.completed_at,
    ...(task.cancel_requested_at ? { cancel_requested_at: task.cancel_requested_at } : {}),
  };
}

export function taskInView(task: TaskEnvelope, view: TaskView): Record<string, unknown> {
  return view === "full" ? task : taskSummary(task);
}
