import { sql } from "drizzle-orm";
import { Gauge, type Registry } from "prom-client";
import type { Db } from "../db/client.js";
import { listRunningLimits, type RunningLimitView } from "../tasks/running-limits.js";
import { readWorkerPresence } from "./worker-heartbeat.js";

// Gauges read from Postgres when Prometheus scrapes, so they are the same on every process that serves them
// (aggregate with max(), not sum()). One snapshot feeds all of them; a scrape costs five small queries.
const JOB_NAMES = ["execute_task", "poll_task", "deliver_callback", "sweep"];

type JobCounts = {
  job: string;
  waiting: number;
  running: number;
  scheduled: number;
  dead: number;
  oldest_waiting: number;
};

interface Snapshot {
  jobs: JobCounts[];
  creditsHeldMicro: bigint;
  openTasks: { capability: string; status: string; n: number }[];
  workersAlive: number;
  limits: RunningLimitView[];
}

async function readSnapshot(db: Db, heartbeatIntervalMs: number): Promise<Snapshot> {
  const [jobs, credits, openTasks, presence, limits] = await Promise.all([
    db.execute<JobCounts>(sql`
      select task_identifier as job,
        count(*) filter (where locked_at is null and attempts < max_attempts and run_at <= now())::int as waiting,
        count(*) filter (where locked_at is not null)::int as running,
        count(*) filter (where locked_at is null and attempts < max_attempts and run_at > now())::int as scheduled,
        count(*) filter (where locked_at is null and attempts >= max_attempts)::int as dead,
        coalesce(extract(epoch from now() - min(run_at) filter (
          where locked_at is null and attempts < max_attempts and run_at <= now())), 0)::float8 as oldest_waiting
      from graphile_worker.jobs group by task_identifier`),
    db.execute<{ held: string }>(sql`select coalesce(sum(held), 0)::text as held from credit_accounts`),
    db.execute<{ capability: string; status: string; n: number }>(sql`
      select capability, status, count(*)::int as n from tasks where status in ('queued', 'running') group by capability, status`),
    readWorkerPresence(db, heartbeatIntervalMs),
    listRunningLimits(db),
  ]);
  return { jobs: [...jobs], creditsHeldMicro: BigInt(credits[0]?.held ?? "0"), openTasks: [...openTasks], workersAlive: presence.alive.length, limits };
}

export function registerDatabaseGauges(registry: Registry, db: Db, heartbeatIntervalMs: number): void {
  // A scrape starts every gauge's collect at once: the first reads the snapshot, the others share that read while
  // it is in flight. The next scrape reads anew.
  let reading: Promise<Snapshot | null> | null = null;
  const snapshot = (): Promise<Snapshot | null> => {
    reading ??= readSnapshot(db, heartbeatIntervalMs)
      .catch(() => null)
      .finally(() => {
        reading = null;
      });
    return reading;
  };
  const registers = [registry];

  new Gauge({
    name: "svc_database_up",
    help: "1 when this process could read the database gauges at this scrape, else 0 (the svc_jobs_*, svc_tasks_open, svc_credits_held and svc_workers_alive series are then absent)",
    registers,
    async collect() {
      this.set((await snapshot()) ? 1 : 0);
    },
  });
  const perJob = (name: string, help: string, field: "waiting" | "running" | "scheduled" | "dead") =>
    new Gauge({
      name,
      help,
      labelNames: ["job"] as const,
      registers,
      async collect() {
        this.reset();
        const read = await snapshot();
        if (!read) return;
        for (const job of JOB_NAMES) this.set({ job }, 0);
        for (const row of read.jobs) this.set({ job: row.job }, row[field]);
      },
    });
  perJob("svc_jobs_queue_depth", "Jobs due now and waiting for a worker, by job name", "waiting");
  perJob("svc_jobs_running", "Jobs a worker holds right now, by job name", "running");
  perJob("svc_jobs_scheduled", "Jobs scheduled for later (vendor polls, callback retries, backoffs), by job name", "scheduled");
  perJob("svc_jobs_dead", "Jobs that used up their attempts and will not run again, by job name", "dead");
  new Gauge({
    name: "svc_jobs_oldest_waiting_seconds",
    help: "How long the oldest due job has been waiting for a worker (0 when none waits)",
    registers,
    async collect() {
      this.reset();
      const read = await snapshot();
      if (read) this.set(Math.max(0, ...read.jobs.map((row) => row.oldest_waiting)));
    },
  });
  new Gauge({
    name: "svc_credits_held",
    help: "Credits held for open tasks across all tenants",
    registers,
    async collect() {
      this.reset();
      const read = await snapshot();
      if (read) this.set(Number(read.creditsHeldMicro) / 1_000_000);
    },
  });
  new Gauge({
    name: "svc_tasks_open",
    help: "Tasks not yet terminal, by capability and status (queued, running)",
    labelNames: ["capability", "status"] as const,
    registers,
    async collect() {
      this.reset();
      const read = await snapshot();
      for (const row of read?.openTasks ?? []) this.set({ capability: row.capability, status: row.status }, row.n);
    },
  });
  new Gauge({
    name: "svc_workers_alive",
    help: "Worker processes whose heartbeat says they are taking jobs",
    registers,
    async collect() {
      this.reset();
      const read = await snapshot();
      if (read) this.set(read.workersAlive);
    },
  });
  const perLimit = (name: string, help: string, value: (limit: RunningLimitView) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ["scope", "subject"] as const,
      registers,
      async collect() {
        this.reset();
        for (const limit of (await snapshot())?.limits ?? []) {
          const measured = value(limit);
          if (measured !== null) this.set({ scope: limit.scope, subject: limit.subject }, measured);
        }
      },
    });
  perLimit("svc_running_limit", "An operator's running limit (svc running-limit set), by scope (tenant, key, family) and subject", (l) => l.max_running);
  perLimit("svc_running_limit_running", "Tasks running now under each running limit or weight, by scope and subject", (l) => l.running);
  perLimit("svc_running_limit_queued", "Tasks waiting under each running limit or weight, by scope and subject", (l) => l.queued);
  perLimit("svc_tenant_weight", "A tenant's weight in the fair share of the workers, where an operator set one", (l) => l.weight);
}
