// A task as the view reads it: the summary svc.tasks.get and the create tools answer (mcp-server/tools/task-view.ts)
// or the full envelope; the fields the view uses have the same names and values in both.

export interface Artifact {
  artifact_id: string;
  kind: string;
  role?: string;
  content_type: string;
  byte_size: number;
  format?: string;
  url: string;
  width?: number;
  height?: number;
  duration_seconds?: number;
}

export interface TaskError {
  code: string;
  message: string;
  retryable?: boolean;
  param?: string;
  details?: Record<string, unknown>;
}

export interface Task {
  object: "task";
  task_id: string;
  status: "queued" | "running" | "succeeded" | "failed" | "canceled";
  capability: string;
  model: string;
  resolved_model: string;
  progress?: { percent: number; stage?: string; message?: string } | null;
  output?: { type?: string; text?: string; voice_id?: string; title?: string | null; artifacts?: Artifact[] } | null;
  error?: TaskError | null;
  // Decimal strings of credits; amounts of zero are left out of the summary.
  billing?: { charged_credits?: string; refunded_credits?: string; net_charged_credits?: string };
  cancel_requested_at?: string | null;
}

const TERMINAL: ReadonlySet<string> = new Set(["succeeded", "failed", "canceled"]);

export function isTerminal(task: Task): boolean {
  return TERMINAL.has(task.status);
}

// What a tool answered: its structuredContent, or the same JSON as its first text content for a host that passed
// on only the content.
export function structuredOf(result: { structuredContent?: unknown; content?: { type: string; text?: string }[] }): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const first = result.content?.[0];
  try {
    return first?.type === "text" && first.text ? JSON.parse(first.text) : null;
  } catch {
    return null;
  }
}

// A tool result's structured answer: a task, or the error of a refused call.
export function taskOf(structured: unknown): Task | null {
  const value = structured as Partial<Task> | null | undefined;
  return value?.object === "task" && typeof value.task_id === "string" ? (value as Task) : null;
}

export function errorOf(structured: unknown): TaskError | null {
  const error = (structured as { error?: TaskError } | null | undefined)?.error;
  return error && typeof error.code === "string" ? error : null;
}
