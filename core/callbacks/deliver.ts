import type { Config } from "../config.js";
import type { Db, ReadSql } from "../db/client.js";
import { taskLogFields, type TaskEventRecorder } from "../tasks/task-events.js";
import { readTask } from "../tasks/task-reads.js";
import { isTerminal } from "../db/task-state-machine.js";
import type { TaskRow } from "../tasks/repository.js";
import { DEFERRED_PRIORITY, deferralDelayMs, releaseSlot, takeDeliverySlot } from "../tasks/tenant-slots.js";
import { replaceCallbackState } from "./delivery-repository.js";
import { enqueueDeliveryAttempt, parseDeliveryJob, type DeliveryJob } from "./delivery-job.js";
import { nextAttemptAt } from "./schedule.js";
import { sendAttempt, type AttemptRuntime } from "./send-attempt.js";
import { deliverySigning } from "../signing-keys/secrets.js";
import { callbackStateOf, IN_FLIGHT, type CallbackState } from "./state.js";

// The parts of the runtime a delivery uses: what its attempt and its record use, the database and the delivery settings.
export interface DeliveryRuntime extends AttemptRuntime, TaskEventRecorder {
  db: Db;
  reads: ReadSql;
  config: Pick<Config, "publicBaseUrl" | "outboundAllowLoopbackHttp" | "callbackTimeoutMs" | "callbackRetryMinuteMs" | "callbackSecretKey" | "tenantDeliverySlots">;
}

// One run of the deliver_callback job: one attempt, its outcome recorded on the task, and on failure the next
// attempt enqueued at its time in the same transaction. A job that finds its attempt already recorded (a duplicate,
// or one overtaken by a redelivery) does nothing. The attempt holds one of the delivery slots of the task's tenant
// (core/tasks/tenant-slots.ts): with every one taken it is put off a few seconds, so a receiver that takes its
// whole time on every delivery delays its own tenant's callbacks only.
export async function deliverCallback(core: DeliveryRuntime, payload: unknown, signal: AbortSignal): Promise<void> {
  const job = parseDeliveryJob(payload);
  const task = await readTask(core.reads, job.task_id);
  const state = task ? callbackStateOf(task) : null;
  if (!task || !task.callbackUrl || !isTerminal(task.status) || !state) return;
  if (state.attempt_count !== job.attempt - 1 || !IN_FLIGHT.includes(state.status)) return;
  const deferrals = job.deferrals ?? 0;
  if (!(await takeDeliverySlot(core.db, task.id, core.config.tenantDeliverySlots, core.clock()))) {
    const later = new Date(core.clock().getTime() + deferralDelayMs(deferrals));
    await enqueueDeliveryAttempt(core.db, { ...job, deferrals: deferrals + 1 }, later, DEFERRED_PRIORITY);
    core.metrics.slotDeferrals.inc({ job: "deliver_callback" });
    return;
  }
  try {
    await attemptDelivery(core, job, task, state, signal);
  } catch (error) {
    // As in an execution (core/tasks/execute.ts): the job runs again later and takes a slot then.
    await releaseSlot(core.db, task.id).catch(() => undefined);
    throw error;
  }
}

async function attemptDelivery(core: DeliveryRuntime, job: DeliveryJob, task: TaskRow, state: CallbackState, signal: AbortSignal): Promise<void> {

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
  // Another job recorded this attempt first (a duplicate): the slot this one held goes back on its own.
  else await releaseSlot(core.db, task.id);
}

// Each attempt is counted by its outcome, and logged with its task's fields (core/tasks/task-events.ts).
function recordCallbackAttempt(core: TaskEventRecorder, task: TaskRow, state: CallbackState): void {
  core.metrics.callbackDeliveries.inc({ outcome: state.status });
  const fields = { ...taskLogFields(task), event_id: state.event_id, attempt: state.attempt_count, outcome: state.status };
  if (state.status === "delivered") core.log.info(fields, "callback delivered");
  else core.log.warn({ ...fields, last_error: state.last_error, next_attempt_at: state.next_attempt_at }, "callback attempt failed");
}
