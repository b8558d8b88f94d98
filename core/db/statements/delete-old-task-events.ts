import { sql } from "drizzle-orm";
import type { Db } from "../client.js";

// The sweep's: task events (core/tasks/task-event-stream.ts) recorded before `before` are dropped; a stream resumed
// later starts from the task as it stands. It answers no rows.
export async function deleteOldTaskEvents(db: Db, before: Date): Promise<void> {
  await db.execute(sql`delete from task_events where created_at <= ${before.toISOString()}`);
}
