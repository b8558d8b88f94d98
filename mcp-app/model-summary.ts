import type { Artifact, Task, TaskError } from "./task";

// What the view tells the model once it has followed a task to its end (ui/update-model-context): one short
// paragraph, so the model knows the outcome without a turn spent polling, and the ids it needs for a next step.

const TEXT_EXCERPT_CHARS = 280;

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function describeArtifacts(artifacts: Artifact[]): string {
  const byKind = new Map<string, Artifact[]>();
  for (const artifact of artifacts) byKind.set(artifact.kind, [...(byKind.get(artifact.kind) ?? []), artifact]);
  return [...byKind]
    .map(([kind, list]) => {
      const seconds = list.reduce((sum, a) => sum + (a.duration_seconds ?? 0), 0);
      const length = seconds > 0 ? ` of ${Math.round(seconds * 10) / 10} s` : "";
      return `${plural(list.length, kind)}${length} (${list.map((a) => a.artifact_id).join(", ")})`;
    })
    .join(", ");
}

function outcome(task: Task): string {
  if (task.status === "failed") return `failed: ${task.error?.code ?? "error"}: ${task.error?.message ?? ""}`.trim();
  if (task.status === "canceled") return "was canceled";
  const output = task.output ?? {};
  const parts: string[] = [];
  if (output.voice_id) parts.push(`created voice ${output.voice_id}`);
  if (output.title) parts.push(`titled "${output.title}"`);
  if (output.artifacts?.length) parts.push(`made ${describeArtifacts(output.artifacts)}`);
  if (output.text !== undefined) {
    const excerpt = output.text.length > TEXT_EXCERPT_CHARS ? `${output.text.slice(0, TEXT_EXCERPT_CHARS)}…` : output.text;
    parts.push(`answered: "${excerpt}"`);
  }
  return `succeeded and ${parts.join("; ") || "made nothing to show"}`;
}

function charged(task: Task): string {
  const net = task.billing?.net_charged_credits;
  return net ? `${net} credits charged` : "nothing charged";
}

export function modelSummary(task: Task): string {
  return (
    `The task view followed task ${task.task_id} (${task.capability} on ${task.resolved_model}) to its end: it ${outcome(task)}; ${charged(task)}. ` +
    "The user sees the result in the view; the task needs no more polling."
  );
}

// A create refused before any task was made: the model sees the error in its tool result too, but a host may show
// the view in its place; the summary says plainly that nothing runs, so the model does not wait on it.
export function refusalSummary(tool: string, error: TaskError): string {
  return (
    `The task view showed ${tool} refused before any task was made: ${error.code}: ${error.message} ` +
    "Nothing is running and nothing was charged for this call."
  );
}
