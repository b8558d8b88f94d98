import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "./api";
import { ErrorView } from "./error-view";
import { Results, UsageAndBilling } from "./results";
import { followTask } from "./task-events";
import type { TaskEnvelope } from "./types";

// One task: its live progress while it runs (the event stream), then its results, usage and billing, callback
// state, the full envelope, and the actions a task allows (cancel while running, redeliver its callback).

const TERMINAL = new Set(["succeeded", "failed", "canceled"]);

export function TaskView({ initial }: { initial: TaskEnvelope }) {
  const [task, setTask] = useState(initial);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    // The task just created or opened takes the focus, so keyboard and screen-reader users land on it.
    heading.current?.focus();
    setTask(initial);
    setError(null);
    setNotice(null);
    if (TERMINAL.has(initial.status)) return;
    const abort = new AbortController();
    followTask(initial.task_id, (change) => setTask((t) => ({ ...t, status: change.status, progress: change.progress })), abort.signal)
      .then(setTask)
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setError(e);
      });
    return () => abort.abort();
  }, [initial.task_id]);

  const act = async (action: () => Promise<TaskEnvelope>, done: string) => {
    setError(null);
    try {
      const next = await action();
      setTask((t) => ({ ...t, ...next }));
      setNotice(done);
    } catch (e) {
      setError(e);
    }
  };
  const cancel = () => act(() => api<TaskEnvelope>("POST", `/v1/tasks/${task.task_id}/cancel`, { body: { reason: "canceled in the console" } }), "Cancellation requested.");
  const redeliver = () => act(() => api<TaskEnvelope>("POST", `/v1/tasks/${task.task_id}/callback/redeliver`), "Callback redelivery scheduled.");
  const percent = task.progress?.percent;
  const terminal = TERMINAL.has(task.status);

  return (
    <article class="task" aria-labelledby={`${task.task_id}-title`} data-task-id={task.task_id} data-status={task.status}>
      <h3 id={`${task.task_id}-title`} ref={heading} tabIndex={-1}>
        Task <code>{task.task_id}</code>
      </h3>
      <p class={`status status-${task.status}`} role="status" aria-live="polite">
        {task.capability} · <strong>{task.status}</strong>
        {task.resolved_model && <> · model {task.resolved_model}</>}
        {task.progress?.stage && task.progress.stage !== task.status && <> · {task.progress.stage}</>}
        {task.progress?.message && <> · {task.progress.message}</>}
      </p>
      {!terminal && <progress max={100} value={percent} aria-label="Progress" />}
      {task.model_selection_reason && <p class="hint">Why this model: {task.model_selection_reason}</p>}
      {task.error && (
        <div class="error" role="alert">
          <p>
            The task failed: <strong>{task.error.code}</strong>: {task.error.message}
          </p>
          {task.error.param && (
            <p>
              Field: <code>{task.error.param}</code>
            </p>
          )}
        </div>
      )}
      {task.status === "succeeded" && <Results task={task} />}
      <UsageAndBilling task={task} />
      {task.callback && (
        <section aria-label="Callback">
          <h4>Callback</h4>
          <p>
            {task.callback.url} · {task.callback.status} · {task.callback.attempt_count} attempt(s)
            {task.callback.delivered_at && <> · delivered {task.callback.delivered_at}</>}
            {task.callback.last_error && <> · last error: {task.callback.last_error}</>}
          </p>
          {terminal && (
            <button type="button" class="secondary" onClick={redeliver}>
              Redeliver callback
            </button>
          )}
        </section>
      )}
      <div class="actions">
        {!terminal && !task.cancel_requested_at && (
          <button type="button" class="secondary" onClick={cancel}>
            Cancel task
          </button>
        )}
      </div>
      {notice && <p role="status">{notice}</p>}
      <ErrorView error={error} />
      <details>
        <summary>Full task envelope</summary>
        <pre class="mono envelope">{JSON.stringify(task, null, 2)}</pre>
      </details>
    </article>
  );
}
