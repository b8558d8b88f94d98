import type { Tx } from "../db/client.js";
import type { IdGenerator } from "../ids.js";
import type { FinishParticipant } from "../tasks/finish-batch.js";
import type { TaskRow } from "../tasks/repository.js";
import { isTerminal } from "../db/task-state-machine.js";
import { startCallbackState } from "./delivery-repository.js";
import { enqueueDeliveryAttempt } from "./delivery-job.js";
import type { CallbackState } from "./state.js";

// A participant of every task's ending: the event gets its identity and its first attempt is enqueued in the
// transaction that ends the task, so a task never ends without its callback being scheduled (nor is it scheduled
// twice).
export function callbackDeliveryParticipant(ids: IdGenerator): FinishParticipant {
  return { name: "callback delivery", joinEnding: (tx, ended) => beginCallbackDelivery(tx, ids, ended) };
}

async function beginCallbackDelivery(tx: Tx, ids: IdGenerator, row: TaskRow): Promise<TaskRow> {
  if (!row.callbackUrl || !isTerminal(row.status) || !row.completedAt) return row;
  const endedAt = row.completedAt;
  const state: CallbackState = {
    status: "pending",
    attempt_count: 0,
    delivered_at: null,
    last_error: null,
    event_id: ids.event(),
    event_type: `task.${row.status}`,
    event_time: endedAt.toISOString(),
    next_attempt_at: endedAt.toISOString(),
  };
  const started = await startCallbackState(tx, row.id, state);
  if (!started) return row;
  await enqueueDeliveryAttempt(tx, { task_id: row.id, attempt: 1, retries: true });
  return started;
}
