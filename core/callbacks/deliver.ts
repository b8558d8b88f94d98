import type { Config } from "../config.js";
import type { Db, DirectSql } from "../db/client.js";
import { recordCallbackAttempt, type TaskEventRecorder } from "../observability/task-events.js";
import { readTask } from "../tasks/task-reads.js";
import { isTerminal } from "../tasks/state.js";
import { replaceCallbackState } from "./delivery-repository.js";
import { enqueueDeliveryAttempt, parseDeliveryJob } from "./delivery-job.js";
import { nextAttemptAt } from "./schedule.js";
import { sendAttempt, type AttemptRuntime } from "./send-attempt.js";
import { deliverySigning } from "../signing-keys/secrets.js";
import { callbackStateOf, IN_FLIGHT, type CallbackState } from "./state.js";

// The parts of the runtime a delivery uses: what its attempt and its record use, the database and the delivery settings.
export interface DeliveryRuntime extends AttemptRuntime, TaskEventRecorder {
  db: Db;
  reads: DirectSql;
  config: Pick<Config, "publicBaseUrl" | "outboundAllowLoopbackHttp" | "callbackTimeoutMs" | "callbackRetryMinuteMs" | "callbackSecretKey">;
}

// One run of the deliver_callback job: one attempt, its outcome recorded on the task, and on failure the next
// attempt enqueued at its time in the same transaction. A job that finds its attempt already recorded (a duplicate,
// or one overtaken by a redelivery) does nothing.
export async function deliverCallback(core: DeliveryRuntime, payload: unknown, signal: AbortSignal): Promise<void> {
  const job = parseDeliveryJob(payload);
  const task = await readTask(core.reads, job.task_id);
  const state = task ? callbackStateOf(task) : null;
  if (!task || !task.callbackUrl || !isTerminal(task.status) || !state) return;
  if (state.attempt_count !== job.attempt - 1 || !IN_FLIGHT.includes(state.status)) return;

  let error: string | null;
  let final = !job.retries;
  const signing = task.callbackSigningKeyId ? await deliverySigning(core, task.tenantId, task.callbackSigningKeyId, core.clock()) : null;
  if (signing && "refused" in signing) {
    error = signing.refused;
    final = true;
  } else {
    const failure = await sendAttempt(core, { task, state, attempt: job.attempt, signing }, signal);
    error = failure?.reason ?? null;
    if (failure?.permanent) final = true;
  }

  const at = core.clock();
  const next = error === null || final ? null : nextAttemptAt(job.attempt, at, core.config.callbackRetryMinuteMs);
  const recorded: CallbackState = {
    ...state,
    attempt_count: job.attempt,
    status: error === null ? "delivered" : next ? "retrying" : "failed",
    delivered_at: error === null ? at.toISOString() : state.delivered_at,
    last_error: error ?? state.last_error,
    next_attempt_at: next?.toISOString() ?? null,
  };
  const saved = await core.db.transaction(async (tx) => {
    const updated = await replaceCallbackState(tx, task.id, { attemptCount: state.attempt_count, statuses: IN_FLIGHT }, recorded);
    if (updated && next) await enqueueDeliveryAttempt(tx, { task_id: task.id, attempt: job.attempt + 1, retries: true }, next);
    return updated;
  });
  if (saved) recordCallbackAttempt(core, task, recorded);
}
