import { useEffect, useState } from "preact/hooks";
import { isTerminal } from "../client/src/types.js";
import { api, createRoute } from "./api";
import { ErrorView } from "./error-view";
import { newIdempotencyKey } from "./idempotency-key";
import { priceSummary } from "./prices";
import { Results } from "./results";
import { followTask } from "./task-events";
import { costOf } from "./task-words";
import type { CapabilityCard, ModelCard, Task } from "./types";
import { secondsOf } from "./typical-duration";

// One request on several models at once: each its own task (its own Idempotency-Key, its own price and hold), the
// results in columns with the model, what it cost and how long it took, and "Keep this one", which takes that
// model into the form and that task as the result.

// What one model made of the request, or why it was refused.
export type Entry = { model: string; task: Task } | { model: string; error: unknown };

export async function runOnModels(card: CapabilityCard, body: Record<string, unknown>, models: string[]): Promise<Entry[]> {
  return Promise.all(
    models.map((model) =>
      api<Task>(createRoute(card.path), { body: { ...body, model }, idempotencyKey: newIdempotencyKey() }).then(
        (task): Entry => ({ model, task }),
        (error: unknown): Entry => ({ model, error }),
      ),
    ),
  );
}

export function ModelChooser({ models, chosen, onChosen, onRun, busy }: { models: ModelCard[]; chosen: string[]; onChosen(models: string[]): void; onRun(): void; busy: boolean }) {
  const toggle = (id: string, on: boolean) => onChosen(on ? [...chosen, id] : chosen.filter((m) => m !== id));
  return (
    <details class="side-by-side">
      <summary>Side by side: run it on several models</summary>
      <fieldset>
        <legend class="hint">Each model runs the request as its own task, at its own price.</legend>
        {models.map((m) => (
          <label class="compare-model">
            <input type="checkbox" value={m.id} checked={chosen.includes(m.id)} onChange={(e) => toggle(m.id, (e.currentTarget as HTMLInputElement).checked)} />{" "}
            {m.id} <span class="hint">· {priceSummary(m.prices)}</span>
          </label>
        ))}
      </fieldset>
      <button type="button" class="secondary" disabled={chosen.length < 2 || busy} onClick={onRun}>
        {chosen.length < 2 ? "Choose two or more models" : `Run on ${chosen.length} models`}
      </button>
    </details>
  );
}

function Column({ entry, onKeep }: { entry: Entry; onKeep(task: Task): void }) {
  const [task, setTask] = useState<Task | null>("task" in entry ? entry.task : null);
  const [error, setError] = useState<unknown>("error" in entry ? entry.error : null);
  useEffect(() => {
    if (!("task" in entry) || isTerminal(entry.task)) return;
    const abort = new AbortController();
    followTask(entry.task.task_id, (change) => setTask((t) => t && { ...t, status: change.status as Task["status"], progress: change.progress }), abort.signal)
      .then(setTask)
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setError(e);
      });
    return () => abort.abort();
  }, []);
  const took = task && secondsOf(task);
  return (
    <section class="compare-column" aria-label={entry.model} data-model={entry.model} data-status={task?.status ?? "refused"}>
      <h3>{entry.model}</h3>
      {task && (
        <p class="compare-facts">
          <span class={`badge status-${task.status}`}>{task.status}</span> <span data-cost>{costOf(task)}</span>
          {took !== null && <> · took <span data-took>{took.toFixed(1)} s</span></>}
        </p>
      )}
      {task && !isTerminal(task) && <progress max={100} value={task.progress?.percent} aria-label={`Progress on ${entry.model}`} />}
      {task?.error && <p class="error-text">{task.error.message}</p>}
      <ErrorView error={error} />
      {task?.status === "succeeded" && <Results task={task} />}
      {task && isTerminal(task) && (
        <button type="button" onClick={() => onKeep(task)}>
          Keep this one
        </button>
      )}
    </section>
  );
}

export function Comparison({ entries, onKeep }: { entries: Entry[]; onKeep(task: Task): void }) {
  return (
    <div class="comparison" aria-label="Side by side">
      {entries.map((entry) => (
        <Column key={"task" in entry ? entry.task.task_id : entry.model} entry={entry} onKeep={onKeep} />
      ))}
    </div>
  );
}
