import { personWords } from "./person-words";
import { isTerminal, type Task, type TaskError } from "./task";
import { TaskOutput, type Saver } from "./task-output";

// The view's one card: what was asked and of which model, where the task stands (a progress bar while it runs),
// what it made or why it failed, what it cost, and a cancel button while it can still stop.

export interface CardState {
  title: string;
  // The text the call asked for (prompt, input or instruction), when it had one.
  request?: string;
  task?: Task;
  // A refused call, or what stopped the view from following the task.
  problem?: TaskError;
  // Said before the problem: what the view was doing when it happened.
  problemContext?: string;
  // A note beside the task: a cancel the model could not honour, a call the host canceled.
  notice?: string;
  canceling: boolean;
  // The model cannot stop this task: the cancel button is gone and the notice says why.
  cancelRefused?: boolean;
}

const STATUS_LABELS: Record<Task["status"], string> = {
  queued: "Queued",
  running: "Running",
  succeeded: "Done",
  failed: "Failed",
  canceled: "Canceled",
};

function Progress({ task }: { task: Task }) {
  const progress = task.progress;
  const percent = task.status === "running" ? (progress?.percent ?? 0) : undefined;
  const words = progress?.message || progress?.stage || (task.status === "queued" ? "waiting for a worker" : "");
  return (
    <div class="progress">
      <progress max={100} value={percent} aria-label="Progress" />
      <span>
        {percent !== undefined ? `${percent}%` : "Queued"}
        {words ? ` · ${words}` : ""}
      </span>
    </div>
  );
}

function Cost({ task }: { task: Task }) {
  const { net_charged_credits: net, refunded_credits: refunded } = task.billing ?? {};
  let text: string;
  if (!isTerminal(task)) text = net ? `${net} credits, refunded if it fails or is canceled` : "";
  // A refund of everything held reads as one fact, not "nothing charged" beside an amount refunded.
  else if (!net) text = refunded ? `Refunded in full (${refunded} credits)` : "Nothing charged";
  else text = `${net} credits charged${refunded ? ` · ${refunded} refunded` : ""}`;
  return text ? (
    <p class="cost" data-net-charged={net ?? "0"}>
      {text}
    </p>
  ) : null;
}

// A task that failed keeps the model's own wording (safety-cleaned), which says what went wrong with the media; a
// refused call or a lost connection is told in the view's words (person-words.ts).
function Problem({ problem, ownWords, before }: { problem: TaskError; ownWords: boolean; before?: string }) {
  return (
    <p class="problem" role="alert" data-code={problem.code}>
      {before ? `${before} ` : ""}
      {ownWords ? problem.message : personWords(problem)}
    </p>
  );
}

export function TaskCard({ state, saver, cancel }: { state: CardState; saver: Saver; cancel(): void }) {
  const { task } = state;
  const running = task !== undefined && !isTerminal(task);
  return (
    <article class="task" data-status={task?.status ?? (state.problem ? "refused" : "waiting")} data-task-id={task?.task_id}>
      <header>
        <h1>{state.title}</h1>
        {task && <span class={`status ${task.status}`}>{STATUS_LABELS[task.status]}</span>}
      </header>
      {task && (
        <p class="model">
          {task.model === task.resolved_model ? task.resolved_model : `${task.model} → ${task.resolved_model}`}
          <span class="id"> · {task.task_id}</span>
        </p>
      )}
      {state.request && <blockquote class="request">{state.request}</blockquote>}
      {!task && !state.problem && <p class="waiting">Waiting for the task…</p>}
      {running && <Progress task={task} />}
      {task?.status === "succeeded" && <TaskOutput task={task} saver={saver} />}
      {task?.error && <Problem problem={task.error} ownWords={true} />}
      {state.problem && <Problem problem={state.problem} ownWords={false} before={state.problemContext} />}
      {state.notice && <p class="notice">{state.notice}</p>}
      {task && <Cost task={task} />}
      {running && !state.cancelRefused && (
        <button type="button" class="cancel" onClick={cancel} disabled={state.canceling || Boolean(task.cancel_requested_at)}>
          {task.cancel_requested_at ? "Stopping…" : "Cancel"}
        </button>
      )}
    </article>
  );
}
