import { useEffect, useRef, useState } from "preact/hooks";
import { isTerminal } from "../client/src/types.js";
import type { Task } from "./types";
import { secondsOf, typicalDuration, type TypicalDuration } from "./typical-duration";

// A running task as the steps its event stream shows (task-events.ts), each with when it came, counted from the
// task's admission: queued (waiting for a worker), started (a worker took it), at the vendor (the model's
// job, with its own words and percentage as they change), retrying, then how it ended. These are the stages the
// service records (progress.stage); what happens inside one (fetching inputs, storing outputs) is not told apart.
// Beside them the time so far, against how long the model usually takes for this account (typical-duration.ts).

interface Step {
  key: string;
  label: string;
  detail: string;
  // Milliseconds from the first step this view saw.
  at: number;
}

function stepOf(task: Task): Omit<Step, "at"> {
  const stage = task.progress?.stage ?? "";
  const detail = task.progress?.message ?? "";
  if (isTerminal(task)) return { key: task.status, label: task.status === "succeeded" ? "Done" : task.status === "failed" ? "Failed" : "Canceled", detail: "" };
  if (task.status === "queued") return { key: "queued", label: "Queued", detail: "waiting for a worker" };
  if (stage === "generating") return { key: "vendor", label: "At the vendor", detail };
  if (stage === "retrying") return { key: "retrying", label: "Retrying", detail };
  return { key: "started", label: "Started", detail: detail || "a worker took it" };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// The steps a view has seen of one task, the last one's detail kept current (a vendor's percentage moves).
function useSteps(task: Task): { steps: Step[]; elapsed: number } {
  // Counted from the task's admission: at once for a task seen from its creation, else by the clocks' difference
  // (this browser's and the service's; never below zero).
  const started = useRef(performance.now() - (task.status === "queued" ? 0 : Math.max(0, Date.now() - Date.parse(task.created_at))));
  const [steps, setSteps] = useState<Step[]>([]);
  const [now, setNow] = useState(() => performance.now() - started.current);
  const next = stepOf(task);
  useEffect(() => {
    setSteps((seen) => {
      const last = seen[seen.length - 1];
      if (last?.key === next.key) return last.detail === next.detail ? seen : [...seen.slice(0, -1), { ...last, detail: next.detail }];
      return [...seen, { ...next, at: performance.now() - started.current }];
    });
  }, [next.key, next.detail]);
  const running = !isTerminal(task);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(performance.now() - started.current), 200);
    return () => clearInterval(timer);
  }, [running]);
  // Once ended, the task's own times (admitted to completed), which count what this view did not see.
  const took = secondsOf(task);
  return { steps, elapsed: took === null ? now : took * 1000 };
}

export function TaskSteps({ task }: { task: Task }) {
  const { steps, elapsed } = useSteps(task);
  const [typical, setTypical] = useState<TypicalDuration | null>(null);
  useEffect(() => {
    if (task.resolved_model) void typicalDuration(task.capability, task.resolved_model).then(setTypical);
  }, [task.capability, task.resolved_model]);
  const running = !isTerminal(task);
  return (
    <section class="task-steps" aria-label="Steps">
      <ol>
        {steps.map((step, i) => (
          <li data-step={step.key} class={i === steps.length - 1 && running ? "current" : undefined}>
            <span class="step-time">{seconds(step.at)}</span> <strong>{step.label}</strong>
            {step.detail && <span class="hint"> · {step.detail}</span>}
          </li>
        ))}
      </ol>
      <p class="hint step-clock">
        {running ? "So far" : "Took"} <span data-elapsed>{seconds(elapsed)}</span>
        {typical && (
          <span data-typical={typical.seconds}>
            {" "}
            · {task.resolved_model} typically takes {seconds(typical.seconds * 1000)} (median of your last {typical.of} {typical.of === 1 ? "task" : "tasks"} on it)
          </span>
        )}
      </p>
    </section>
  );
}
