import { sql } from "drizzle-orm";
import type { Db } from "../client.js";
import { integer } from "./row-parsing.js";

const STATEMENT = "delete-old-task-events";

// The sweep's: at most `limit` task events (core/tasks/task-event-stream.ts) recorded before `before` are dropped,
// the oldest first by task_events_created_at; a stream resumed later starts from the task as it stands. Answers
// how many went.
export async function deleteOldTaskEvents(db: Db, before: Date, limit: number): Promise<number> {
  const rows = await db.execute<Record<string, unknown>>(sql`
    with gone as (
      delete from task_events
       where ctid = any(array(select ctid from task_events where created_at <= ${before.toISOString()} order by created_at limit ${limit}))
      returning 1)
    select count(*)::int as deleted from gone`);
  return rows[0] ? integer(rows[0], "deleted", STATEMENT) : 0;
}
