import { sql } from "drizzle-orm";
import { BatchedLookup } from "../db/batched-lookup.js";
import type { Db } from "../db/client.js";
import type { Clock } from "../clock.js";
import type { VendorFamily } from "../vendor-families.js";
import { TASK_TRANSITIONS } from "./state.js";
import { taskRowOf, type TaskRow } from "./task-rows.js";

type RawRow = Record<string, unknown>;

// The tasks whose execute jobs start in one turn of the event loop start in one statement (core/db/
// batched-lookup.ts): the worker's jobs arrive in batches (its local queue) and free up together (endings commit in
// groups), so most starts share one round trip and one commit. It is the state machine's `start`, written out for
// the attempt count and the deadline: a task still open and within its deadline, of a family this process has an
// adapter for, is marked running (counted as an attempt when it was queued; one found running was started by a
// worker that died or by a retry). Each task is answered its row as started, or null when it was not.
export class TaskStarts {
  private readonly starts: BatchedLookup<RawRow>;

  // `db` runs the statement (prepared, core/db/client.ts `transitions`); `families` are those this process has
  // adapters for; the clock gives the group its start time.
  constructor(
    db: Db,
    private readonly families: () => readonly VendorFamily[],
    clock: Clock,
  ) {
    this.starts = new BatchedLookup(async (ids) => {
      const at = clock().toISOString();
      const { from, to } = TASK_TRANSITIONS.start;
      const rows = await db.execute<RawRow>(sql`
        update tasks set
          status = ${to},
          started_at = coalesce(started_at, ${at}::timestamptz),
          attempts = attempts + case when status = 'queued' then 1 else 0 end,
          progress = jsonb_build_object('percent', 10, 'stage', 'submitted', 'message', 'sent to ' || resolved_model)
        where id = any(${sql.param(ids)}::text[]) and status in ${[...from]} and deadline_at > ${at}::timestamptz
          and provider_family = any(${sql.param(families())}::text[])
        returning *`);
      return new Map(rows.map((row) => [row.id as string, row]));
    });
  }

  async start(taskId: string): Promise<TaskRow | null> {
    if (this.families().length === 0) return null;
    const raw = await this.starts.get(taskId);
    return raw ? taskRowOf(raw) : null;
  }
}
