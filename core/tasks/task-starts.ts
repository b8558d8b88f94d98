import { BatchedLookup } from "../db/batched-lookup.js";
import type { TransitionsDb } from "../db/client.js";
import { startTasks, type StartedRow, type StartRequest } from "../db/statements/start-tasks.js";
import type { Clock } from "../clock.js";
import type { VendorFamily } from "../vendor-families.js";
import type { TaskRow } from "./task-rows.js";

// What a start answers an execute job: the task it started (the fairest waiting one, or the one the job holds
// already), parked (tasks wait behind an operator's running limit; a job enqueued for later asks again), or null
// when nothing waits that this process can run.
export type StartOutcome = { kind: "started"; row: TaskRow } | { kind: "parked" } | null;

// The execute jobs that ask in one turn of the event loop are answered by one start statement (core/db/
// batched-lookup.ts, core/db/statements/start-tasks.ts): the worker's jobs arrive in batches (its local queue) and
// free up together (endings commit in groups), so most starts share one round trip and one commit.
export class TaskStarts {
  private readonly starts: BatchedLookup<StartedRow>;
  private readonly asked = new Map<string, StartRequest>();

  // `db` runs the statement (prepared, core/db/client.ts `transitions`); `families` are those this process has
  // adapters for; the clock gives the group its start time.
  constructor(
    db: TransitionsDb,
    private readonly families: () => readonly VendorFamily[],
    clock: Clock,
  ) {
    this.starts = new BatchedLookup(async (jobIds) => {
      const requests = jobIds.map((jobId) => this.asked.get(jobId) as StartRequest);
      for (const jobId of jobIds) this.asked.delete(jobId);
      const rows = await startTasks(db, requests, families(), clock());
      return new Map(rows.map((row) => [row.askedBy, row]));
    });
  }

  async start(request: StartRequest): Promise<StartOutcome> {
    if (this.families().length === 0) return null;
    this.asked.set(request.jobId, request);
    const started = await this.starts.get(request.jobId);
    if (!started || started.kind === "none") return null;
    return started.kind === "parked" ? { kind: "parked" } : { kind: "started", row: started.row };
  }
}
