import { BatchedLookup } from "../db/batched-lookup.js";
import type { TransitionsDb } from "../db/client.js";
import { startTasks, type StartedRow, type StartRequest } from "../db/statements/start-tasks.js";
import type { Clock } from "../clock.js";
import type { VendorFamily } from "../vendor-families.js";
import type { TaskRow } from "./task-rows.js";
import { retryingSlotRaces } from "./tenant-slots.js";

// What a start answers: the task as started, the task deferred (every slot of its tenant is taken; the job
// enqueued to try again at its time has been handed the task), or null when the task cannot start at all.
export type StartOutcome = { kind: "started"; row: TaskRow } | { kind: "deferred" } | null;

// The tasks whose execute jobs start in one turn of the event loop start in one statement (core/db/
// batched-lookup.ts, core/db/statements/start-tasks.ts): the worker's jobs arrive in batches (its local queue) and
// free up together (endings commit in groups), so most starts share one round trip and one commit.
export class TaskStarts {
  private readonly starts: BatchedLookup<StartedRow>;
  private readonly asked = new Map<string, StartRequest>();

  // `db` runs the statement (prepared, core/db/client.ts `transitions`); `families` are those this process has
  // adapters for; `slots` is each tenant's number of slots; the clock gives the group its start time.
  constructor(
    db: TransitionsDb,
    private readonly families: () => readonly VendorFamily[],
    clock: Clock,
    slots: number,
  ) {
    this.starts = new BatchedLookup(async (keys) => {
      const requests = keys.map((key) => this.asked.get(key) as StartRequest);
      for (const key of keys) this.asked.delete(key);
      const now = clock();
      const rows = await retryingSlotRaces(() => startTasks(db, requests, families(), slots, now));
      return new Map(rows.map((row) => [keyOf(row.taskId, row.askedBy), row]));
    });
  }

  async start(request: StartRequest): Promise<StartOutcome> {
    if (this.families().length === 0) return null;
    const key = keyOf(request.taskId, request.jobId);
    this.asked.set(key, request);
    const started = await this.starts.get(key);
    if (!started) return null;
    return started.deferred ? { kind: "deferred" } : { kind: "started", row: started.row };
  }
}

const keyOf = (taskId: string, jobId: string) => `${taskId} ${jobId}`;
