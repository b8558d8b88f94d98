import { sweepRetention, type RetentionRuntime } from "../artifacts/retention.js";
import { inBoundedBatches } from "../db/bounded-batches.js";
import type { Db } from "../db/client.js";
import { deleteExpiredKeys } from "../db/statements/delete-expired-keys.js";
import { deleteOldTaskEvents } from "../db/statements/delete-old-task-events.js";
import { expireSlots } from "../db/statements/expire-slots.js";
import { overdueTasks } from "../db/statements/overdue-tasks.js";
import { DEADLINE_PASSED } from "./advance.js";
import { finishUnsuccessfully, type FinishRuntime } from "./finish.js";
import { stopVendorJob, type VendorStopRuntime } from "./vendor-stop.js";

const TASK_EVENTS_KEPT_MS = 24 * 60 * 60 * 1000;
const OVERDUE_PER_SWEEP = 500;
// Expired keys and old events go this many rows to a statement, at most this many statements a run: a backlog (a
// burst of traffic a day ago, a sweep that was down) is worked off over several runs, never in one long delete.
const ROWS_PER_BATCH = 5_000;
const BATCHES_PER_SWEEP = 10;

// The parts of the runtime a sweep uses: the database, what a task's ending uses and what stopping its vendor job
// uses.
export interface SweepRuntime extends FinishRuntime, VendorStopRuntime, RetentionRuntime {
  db: Db;
}

// Periodic safety net: any open task past its deadline ends failed with model_timeout and a full refund,
// whatever happened to its jobs, and then its job at the vendor is stopped, as the poll that would have found it
// overdue stops it (by whichever of the two ended it); worker slots whose jobs never gave them back are freed
// (core/tasks/tenant-slots.ts); expired idempotency keys are dropped, and task events (core/tasks/task-event-stream.ts) a
// day old: a stream resumed later starts from the task as it stands; artifacts past their retention are deleted in
// bounded batches (core/artifacts/retention.ts).
export async function sweepOverdueTasks(core: SweepRuntime, signal: AbortSignal = new AbortController().signal): Promise<number> {
  const now = core.clock();
  let ended = 0;
  for (const task of await overdueTasks(core.db, now, OVERDUE_PER_SWEEP)) {
    const row = await finishUnsuccessfully(core, task.id, "fail", DEADLINE_PASSED);
    if (!row) continue;
    ended++;
    await stopVendorJob(core, task, signal);
  }
  await expireSlots(core.db, now);
  await inBoundedBatches(() => deleteExpiredKeys(core.db, now, ROWS_PER_BATCH), ROWS_PER_BATCH, BATCHES_PER_SWEEP);
  const eventsBefore = new Date(now.getTime() - TASK_EVENTS_KEPT_MS);
  await inBoundedBatches(() => deleteOldTaskEvents(core.db, eventsBefore, ROWS_PER_BATCH), ROWS_PER_BATCH, BATCHES_PER_SWEEP);
  await sweepRetention(core);
  return ended;
}
