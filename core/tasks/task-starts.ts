import { GroupCommit } from "../db/group-commit.js";
import type { TransitionsDb } from "../db/client.js";
import { startTasks, type StartRequest } from "../db/statements/start-tasks.js";
import type { Clock } from "../clock.js";
import type { VendorFamily } from "../vendor-families.js";
import type { TaskRow } from "../db/task-rows.js";
import { START_POLICY } from "./tenant-slots.js";

// What a start answers an execute job: the task it started (the fairest waiting one, or the one the job holds
// already), parked (tasks wait behind an operator's running limit; a job enqueued for later asks again), or null
// when nothing waits that this process can run.
export type StartOutcome = { kind: "started"; row: TaskRow } | { kind: "parked" } | null;

// The execute jobs of a worker process ask in groups (core/db/group-commit.ts), one start statement at a time
// (core/db/statements/start-tasks.ts): every start statement of every worker takes one lock, so a second group sent
// meanwhile would only wait for it; instead the jobs that ask while a statement runs share the next one. Under
// load a statement starts as many tasks as jobs have freed, in one round trip and one commit.
export class TaskStarts {
  private readonly starts: GroupCommit<StartRequest, StartOutcome>;

  // `db` runs the statement (prepared, core/db/client.ts `transitions`); `families` are those this process has
  // adapters for; the clock gives each group its start time.
  constructor(
    db: TransitionsDb,
    private readonly families: () => readonly VendorFamily[],
    clock: Clock,
  ) {
    this.starts = new GroupCommit(async (requests) => {
      const rows = new Map((await startTasks(db, requests, families(), START_POLICY, clock())).map((row) => [row.askedBy, row]));
      return requests.map((request): StartOutcome => {
        const started = rows.get(request.jobId);
        if (!started || started.kind === "none") return null;
        return started.kind === "parked" ? { kind: "parked" } : { kind: "started", row: started.row };
      });
    });
  }

  async start(request: StartRequest): Promise<StartOutcome> {
    if (this.families().length === 0) return null;
    return this.starts.submit(request);
  }
}
