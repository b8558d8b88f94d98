import { sql } from "drizzle-orm";
import { OPEN_STATUSES } from "../task-state-machine.js";
import { taskRowOf, type TaskRow } from "../task-rows.js";
import type { Db } from "../client.js";

// The sweep's first look (core/tasks/sweep.ts): open tasks past their deadline, at most `limit` a run (the next
// run, a minute later, takes the rest).
export async function overdueTasks(db: Db, now: Date, limit: number): Promise<TaskRow[]> {
  const rows = await db.execute<Record<string, unknown>>(sql`
    select * from tasks where status in ${[...OPEN_STATUSES]} and deadline_at <= ${now.toISOString()} limit ${limit}`);
  return rows.map(taskRowOf);
}
