import type { WorkerEvents } from "graphile-worker";
import type { CheckResult } from "../core/index.js";

// Whether this worker process is taking jobs, read from graphile-worker's own events: its LISTEN connection is
// up, and its job loops have asked Postgres for work recently (an idle loop asks every poll interval) or hold
// jobs right now. A worker whose database calls fail, or whose pool is shutting down, is not taking jobs.
export class JobIntake {
  private listening = false;
  private stopping = false;
  private activeJobs = 0;
  private lastAskedAt: number | null = null;
  private lastError: string | null = null;

  constructor(
    events: WorkerEvents,
    private readonly pollIntervalMs: number,
  ) {
    // A new pool (the runner started again after losing its database) starts from nothing.
    events.on("pool:create", () => {
      this.stopping = false;
      this.listening = false;
      this.activeJobs = 0;
      this.lastAskedAt = null;
    });
    events.on("pool:listen:success", () => {
      this.listening = true;
    });
    events.on("pool:listen:error", ({ error }) => {
      this.listening = false;
      this.lastError = `LISTEN connection failed: ${(error as Error).message}`;
    });
    events.on("worker:getJob:empty", () => this.asked());
    // With a local queue (worker/runner.ts) the queue asks, a batch at a time, and idle job loops wait on it.
    events.on("localQueue:getJobs:complete", () => this.asked());
    events.on("job:start", () => {
      this.asked();
      this.activeJobs++;
    });
    events.on("job:complete", () => {
      this.activeJobs = Math.max(0, this.activeJobs - 1);
    });
    events.on("worker:getJob:error", ({ error }) => {
      this.lastError = `asking for jobs failed: ${(error as Error).message}`;
    });
    events.on("pool:gracefulShutdown", () => {
      this.stopping = true;
    });
  }

  private asked(): void {
    this.lastAskedAt = Date.now();
    this.lastError = null;
  }

  // Three poll intervals (at least five seconds) without asking for work, with nothing running, is a stall.
  private get window(): number {
    return Math.max(3 * this.pollIntervalMs, 5000);
  }

  // How long a runner may go without taking jobs before it is replaced (worker/restarting-runner.ts): long enough
  // for a database restart to end and the runner's own retries to find it again.
  get stallAfterMs(): number {
    return 3 * this.window;
  }

  takingJobs(): boolean {
    if (this.stopping || !this.listening || this.lastAskedAt === null) return false;
    return this.activeJobs > 0 || Date.now() - this.lastAskedAt <= this.window;
  }

  report(): CheckResult {
    const ok = this.takingJobs();
    return {
      ok,
      active_jobs: this.activeJobs,
      listening: this.listening,
      last_asked_seconds_ago: this.lastAskedAt === null ? null : Math.round((Date.now() - this.lastAskedAt) / 100) / 10,
      ...(ok ? {} : { reason: this.stopping ? "shutting down" : (this.lastError ?? "not asking Postgres for jobs") }),
    };
  }
}
