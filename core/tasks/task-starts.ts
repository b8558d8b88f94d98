import { sql } from "drizzle-orm";
import { BatchedLookup } from "../db/batched-lookup.js";
import type { Db } from "../db/client.js";
import type { Clock } from "../clock.js";
import type { VendorFamily } from "../vendor-families.js";
import { TASK_TRANSITIONS } from "./state.js";
import { taskRowOf, type TaskRow } from "./task-rows.js";

// The parts of the runtime a task's start uses.
export interface StartRuntime {
  db: Db;
  clock: Clock;
  providers: { withAdapters(): readonly VendorFamily[] };
}

type RawRow = Record<string, unknown>;
const startsOf = new WeakMap<StartRuntime["providers"], BatchedLookup<RawRow>>();

// The tasks whose execute jobs start in one turn of the event loop start in one statement (core/db/
// batched-lookup.ts): the worker's jobs arrive in batches (its local queue) and free up together (endings commit in
// groups), so most starts share one round trip and one commit. It is the state machine's `start`, written out for
// the attempt count and the deadline: a task still open and within its deadline, of a family this process has an
// adapter for, is marked running (counted as an attempt when it was queued; one found running was started by a
// worker that died or by a retry). Each task is answered its row as started, or null when it was not.
export async function startTask(core: StartRuntime, taskId: string): Promise<TaskRow | null> {
  if (core.providers.withAdapters().length === 0) return null;
  const raw = await startsOn(core).get(taskId);
  return raw ? taskRowOf(raw) : null;
}

function startsOn(core: StartRuntime): BatchedLookup<RawRow> {
  let starts = startsOf.get(core.providers);
  if (!starts) {
    starts = new BatchedLookup(async (ids) => {
      const at = core.clock().toISOString();
      const { from, to } = TASK_TRANSITIONS.start;
      const rows = await core.db.execute<RawRow>(sql`
        update tasks set
          status = ${to},
          started_at = coalesce(started_at, ${at}::timestamptz),
          attempts = attempts + case when status = 'queued' then 1 else 0 end,
          progress = jsonb_build_object('percent', 10, 'stage', 'submitted', 'message', 'sent to ' || resolved_model)
        where id = any(${sql.param(ids)}::text[]) and status in ${[...from]} and deadline_at > ${at}::timestamptz
          and provider_family = any(${sql.param(core.providers.withAdapters())}::text[])
        returning *`);
      return new Map(rows.map((row) => [row.id as string, row]));
    });
    startsOf.set(core.providers, starts);
  }
  return starts;
}
