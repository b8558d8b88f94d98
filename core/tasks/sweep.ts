import { sql } from "drizzle-orm";
import type { Core } from "../runtime.js";
import { DEADLINE_PASSED } from "./advance.js";
import { finishUnsuccessfully } from "./finish.js";

// Periodic safety net: any open task past its deadline ends failed with model_timeout and a full refund,
// whatever happened to its jobs; expired idempotency keys are dropped.
export async function sweepOverdueTasks(core: Core): Promise<number> {
  const now = core.clock();
  const overdue = await core.db.execute<{ id: string }>(sql`
    select id from tasks where status in ('queued', 'running') and deadline_at <= ${now.toISOString()} limit 500`);
  let ended = 0;
  for (const { id } of overdue) {
    const row = await finishUnsuccessfully(core, id, "failed", DEADLINE_PASSED);
    if (row) ended++;
  }
  await core.db.execute(sql`delete from idempotency_keys where expires_at <= ${now.toISOString()}`);
  return ended;
}
