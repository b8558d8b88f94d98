import { sql } from "drizzle-orm";
import { sweepRetention, type RetentionRuntime } from "../artifacts/retention.js";
import type { Db } from "../db/client.js";
import { DEADLINE_PASSED } from "./advance.js";
import { finishUnsuccessfully, type FinishRuntime } from "./finish.js";
import { OPEN_STATUSES } from "./state.js";
import { taskRowOf } from "./task-rows.js";
import { expireSlots } from "./tenant-slots.js";
import { stopVendorJob, type VendorStopRuntime } from "./vendor-stop.js";

const TASK_EVENTS_KEPT_MS = 24 * 60 * 60 * 1000;

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
  const overdue = await core.db.execute<Record<string, unknown>>(sql`
    select * from tasks where status in ${[...OPEN_STATUSES]} and deadline_at <= ${now.toISOString()} limit 500`);
  let ended = 0;
  for (const task of overdue.map(taskRowOf)) {
    const row = await finishUnsuccessfully(core, task.id, "fail", DEADLINE_PASSED);
    if (!row) continue;
    ended++;
    await stopVendorJob(core, task, signal);
  }
  await expireSlots(core.db, now);
  await core.db.execute(sql`delete from idempotency_keys where expires_at <= ${now.toISOString()}`);
  await core.db.execute(sql`delete from task_events where created_at <= ${new Date(now.getTime() - TASK_EVENTS_KEPT_MS).toISOString()}`);
  await sweepRetention(core);
  return ended;
}
