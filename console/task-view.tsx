import { useEffect, useRef, useState } from "preact/hooks";
import { CAPABILITY_PATHS } from "../client/src/generated/capabilities.js";
import { isTerminal } from "../client/src/types.js";
import { api, createRoute, operationRoute } from "./api";
import { cancelPolicy } from "./cancel-policy";
import { modelCard } from "./catalog";
import { ErrorView } from "./error-view";
import { handOff } from "./hand-off";
import { newIdempotencyKey } from "./idempotency-key";
import { Results, UsageAndBilling } from "./results";
import { followTask } from "./task-events";
import { TaskSteps } from "./task-steps";
import { costOf, promptOf, when } from "./task-words";
import type { ModelCard, Task } from "./types";

// One task: its live progress while it runs (the event stream, as steps with their times), then its results;
// what it was asked, on which model, at what cost; and what can be done with it: cancel (only where the service
// can cancel it, and why not otherwise), run it again, open it in Try to change it, redeliver its callback.

interface TaskViewProps {
  initial: Task;
  // Where a new task made by "Run again" goes; without it, to the new task's own History address.
  onRunAgain?(task: Task): void;
  // The heading takes the focus when the view opens (a task opened from a list).
  focus?: boolean;
}

// After "Cancel task": requested while the task still runs; once it ended, how (it may have finished first).
function cancelNotice(task: Task): string {
  if (!isTerminal(task)) return "Cancellation requested; the task stops shortly.";
  if (task.status === "canceled") return "Canceled.";
  return `It ended ${task.status} before the cancellation took effect.`;
}

export function TaskView({ initial, onRunAgain, focus = false }: TaskViewProps) {
  const [task, setTask] = useState(initial);
  const [card, setCard] = useState<ModelCard | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // A cancel this view asked for: what it says follows the task (requested while it runs, then how it ended).
  const [cancelAsked, setCancelAsked] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (focus) heading.current?.focus();
    setTask(initial);
    setError(null);
    setNotice(null);
    setCancelAsked(false);
    if (isTerminal(initial)) return;
    const abort = new AbortController();
    followTask(initial.task_id, (change) => setTask((t) => ({ ...t, status: change.status as Task["status"], progress: change.progress })), abort.signal)
      .then(setTask)
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setError(e);
      });
    return () => abort.abort();
  }, [initial.task_id]);

  useEffect(() => {
    modelCard(task.resolved_model).then(setCard, () => setCard(undefined));
  }, [task.resolved_model]);

  // Whether the action was accepted; `done` is the notice it leaves.
  const act = async (action: () => Promise<Task>, done: string | null): Promise<boolean> => {
    setError(null);
    try {
      const next = await action();
      // The answer can come after the stream's final envelope (a cancel the worker carried out at once): an ended
      // task is never taken back to the state the answer saw.
      setTask((t) => (isTerminal(t) && !isTerminal(next) ? t : { ...t, ...next }));
      setNotice(done);
      return true;
    } catch (e) {
      setError(e);
      return false;
    }
  };
  const cancel = async () => {
    setCancelAsked(await act(() => api<Task>(operationRoute("cancelTask", { task_id: task.task_id }), { body: { reason: "canceled in the console" } }), null));
  };
  const redeliver = () => act(() => api<Task>(operationRoute("redeliverTaskCallback", { task_id: task.task_id })), "Callback redelivery scheduled.");
  const runAgain = async () => {
    setError(null);
    const path = CAPABILITY_PATHS[task.capability as keyof typeof CAPABILITY_PATHS];
    try {
      const created = await api<Task>(createRoute(path), { body: task.input, idempotencyKey: newIdempotencyKey() });
      if (onRunAgain) onRunAgain(created);
      else location.hash = `#/history/${created.task_id}`;
    } catch (e) {
      setError(e);
    }
  };
  const policy = cancelPolicy(task, card);
  const terminal = isTerminal(task);
  const prompt = promptOf(task);

  return (
    <article class="task" aria-labelledby={`${task.task_id}-title`} data-task-id={task.task_id} data-status={task.status}>
      <h3 id={`${task.task_id}-title`} ref={heading} tabIndex={-1}>
        {prompt ? <q>{prompt.length > 140 ? `${prompt.slice(0, 140)}…` : prompt}</q> : task.capability.replace(/_/g, " ")}
      </h3>
      <p class="task-facts" role="status" aria-live="polite">
        <span class={`badge status-${task.status}`}>{task.status}</span> {task.capability.replace(/_/g, " ")} · {task.resolved_model} · {costOf(task)} ·{" "}
        {when(task.created_at)}
      </p>
      {!terminal && <progress max={100} value={task.progress?.percent} aria-label="Progress" />}
      {!isTerminal(initial) && <TaskSteps task={task} />}
      {task.error && (
        <div class="error" role="alert">
          <p>
            <strong>{task.error.code}</strong>: {task.error.message}
          </p>
          {task.error.param && (
            <p>
              Field: <code>{task.error.param}</code>
            </p>
          )}
        </div>
      )}
      {task.status === "succeeded" && <Results task={task} />}
      <div class="actions">
        {policy.cancelable && (
          <button type="button" class="secondary danger" onClick={cancel}>
            Cancel task
          </button>
        )}
        {terminal && (
          <button type="button" class="secondary" onClick={runAgain}>
            Run again
          </button>
        )}
        <button type="button" class="secondary" onClick={() => handOff(task.capability, task.input)}>
          Edit in Try
        </button>
        {onRunAgain && <a href={`#/history/${task.task_id}`}>Open in History</a>}
      </div>
      {!policy.cancelable && !terminal && <p class="hint cancel-reason">Cannot be canceled: {policy.reason}</p>}
      {cancelAsked && <p role="status" class="cancel-notice">{cancelNotice(task)}</p>}
      {notice && <p role="status">{notice}</p>}
      <ErrorView error={error} />
      {task.model_selection_reason && <p class="hint">Why this model: {task.model_selection_reason}</p>}
      {task.callback && (
        <section aria-label="Callback" class="callback">
          <p>
            Callback to {task.callback.url}: {task.callback.status}, {task.callback.attempt_count} attempt(s)
            {task.callback.delivered_at && <>, delivered {when(task.callback.delivered_at)}</>}
            {task.callback.last_error && <>, last error: {task.callback.last_error}</>}
          </p>
          {terminal && (
            <button type="button" class="secondary" onClick={redeliver}>
              Redeliver callback
            </button>
          )}
        </section>
      )}
      <UsageAndBilling task={task} />
      <details>
        <summary>Full task envelope</summary>
        <pre class="mono envelope" tabIndex={0}>
          {JSON.stringify(task, null, 2)}
        </pre>
      </details>
    </article>
  );
}
