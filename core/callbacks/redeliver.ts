import type { Db, ReadSql } from "../db/client.js";
import { ServiceError } from "../errors/index.js";
import { toEnvelope, type TaskEnvelope } from "../tasks/envelope.js";
import { envelopeContext, type EnvelopeRuntime } from "../tasks/read.js";
import { readTaskForTenant } from "../tasks/task-reads.js";
import { replaceCallbackState } from "./delivery-repository.js";
import { enqueueDeliveryAttempt } from "./delivery-job.js";
import { requireActiveSigningKey } from "../signing-keys/keys.js";
import { callbackStateOf, SETTLED } from "./state.js";

// The parts of the runtime a redelivery uses: the database, and what the task's envelope is written with.
export interface RedeliveryRuntime extends EnvelopeRuntime {
  db: Db;
  reads: ReadSql;
}

// POST /v1/tasks/{task_id}/callback/redeliver: one more attempt of the terminal task's event (same event_id, the
// next attempt number), for a receiver that lost or refused it. Allowed once the scheduled series has settled
// (delivered or failed); a failure of this attempt schedules nothing further.
export async function redeliverCallback(core: RedeliveryRuntime, tenantId: string, taskId: string): Promise<TaskEnvelope> {
  const task = await readTaskForTenant(core.reads, tenantId, taskId);
  if (!task) throw new ServiceError("task_not_found", `No task ${taskId}.`, { details: { task_id: taskId } });
  if (!task.callbackUrl) {
    throw new ServiceError("conflict", `Task ${taskId} was created without a callback_url; there is nothing to deliver.`, {
      details: { task_id: taskId, reason: "no_callback_url" },
    });
  }
  const state = callbackStateOf(task);
  if (!state) {
    throw new ServiceError("conflict", `Task ${taskId} is ${task.status}; its callback is sent when it reaches a terminal state.`, {
      details: { task_id: taskId, status: task.status, action: "keep_polling" },
    });
  }
  if (!SETTLED.includes(state.status)) {
    throw new ServiceError("conflict", `A delivery of task ${taskId}'s callback is already scheduled; wait for it to settle.`, {
      details: { task_id: taskId, callback_status: state.status, next_attempt_at: state.next_attempt_at, action: "wait" },
    });
  }
  if (task.callbackSigningKeyId) await requireActiveSigningKey(core.db, tenantId, task.callbackSigningKeyId);
  const now = core.clock();
  const updated = await core.db.transaction(async (tx) => {
    const row = await replaceCallbackState(
      tx,
      taskId,
      { attemptCount: state.attempt_count, statuses: SETTLED },
      { ...state, status: "pending", next_attempt_at: now.toISOString() },
    );
    if (row) await enqueueDeliveryAttempt(tx, { task_id: taskId, attempt: state.attempt_count + 1, retries: false });
    return row;
  });
  if (!updated) {
    throw new ServiceError("conflict", `Task ${taskId}'s callback changed while asking for a redelivery; read the task and try again.`, {
      details: { task_id: taskId, action: "retry" },
    });
  }
  return toEnvelope(updated, envelopeContext(core));
}
