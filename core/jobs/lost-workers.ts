import { sql } from "drizzle-orm";
import postgres from "postgres";
import type { Config } from "../config.js";
import { queryTimeout, type Db } from "../db/client.js";
import type { Logger } from "../observability/logger.js";
import { GRAPHILE_JOBS_TABLE } from "../db/statements/graphile-jobs.js";

// graphile-worker locks a job to the worker pool running it and gives the job back only after four hours when
// that pool dies (SIGKILL, a lost machine), or when the pool lives on but could not record the job's end (the
// database was unreachable at that moment). Both would strand tasks, so each worker process:
// - keeps one database session named after its pool for as long as it lives (Postgres ends a dead process's
//   session by itself), and
// - regularly reads every locked job and unlocks those held by a pool that has no such session, or held by its
//   own pool without it running them or keeping them in its local queue, once that has lasted WORKER_LOST_AFTER_MS
//   (so a session reconnecting after a network blip or a database restart, or a job whose end is being recorded
//   or that was fetched a moment ago, is not mistaken for lost).
// The jobs then run again on whichever worker takes them; every task transition is guarded in the database, so
// a task still ends exactly once.
const SESSION_PREFIX = "svc-jobs ";

// The parts of the runtime the recovery uses: the database (and its address, for the session named after the
// pool), the time a job may look lost before it is unlocked, and the log of what it unlocked.
export interface LostWorkerRuntime {
  db: Db;
  log: Logger;
  config: Pick<Config, "workerLostAfterMs" | "databaseUrl" | "databaseQueryTimeoutMs">;
}

export interface LostWorkerRecovery {
  stop(): Promise<void>;
}

export interface OwnPool {
  id: string;
  // The ids of the jobs this process holds right now: running, or fetched into its local queue to run next.
  heldJobIds(): ReadonlySet<string>;
}

export function startLostWorkerRecovery(core: LostWorkerRuntime, pool: OwnPool, onError: (error: unknown) => void): LostWorkerRecovery {
  const lostAfterMs = core.config.workerLostAfterMs;
  const intervalMs = Math.max(25, Math.floor(lostAfterMs / 4));
  const liveness = postgres(core.config.databaseUrl, {
    ...queryTimeout(core.config.databaseQueryTimeoutMs),
    max: 1,
    onnotice: () => {},
    connection: { application_name: `${SESSION_PREFIX}${pool.id}` },
  });
  // Since when (this process's clock) each suspect has been seen: `pool:<id>` for a pool without a session,
  // `job:<id>` for a job locked by this process's pool that it neither runs nor keeps in its local queue.
  const suspectSince = new Map<string, number>();

  async function round(): Promise<void> {
    // Also what re-opens the session after the database restarted.
    await liveness`select 1`;
    const locked = await core.db.execute<{ job_id: string; pool: string; alive: boolean }>(sql`
      select jobs.id::text as job_id, jobs.locked_by as pool, exists (
        select 1 from pg_stat_activity as session
        where session.datname = current_database() and session.application_name = ${SESSION_PREFIX} || jobs.locked_by
      ) as alive
      from graphile_worker.jobs as jobs
      where jobs.locked_by is not null`);
    const held = pool.heldJobIds();
    const now = Date.now();
    const suspects = new Set<string>();
    for (const row of locked) {
      if (row.pool === pool.id) {
        if (!held.has(row.job_id)) suspects.add(`job:${row.job_id}`);
      } else if (!row.alive) {
        suspects.add(`pool:${row.pool}`);
      }
    }
    for (const suspect of suspectSince.keys()) if (!suspects.has(suspect)) suspectSince.delete(suspect);
    const lostPools: string[] = [];
    const strandedJobs: string[] = [];
    for (const suspect of suspects) {
      const since = suspectSince.get(suspect) ?? now;
      suspectSince.set(suspect, since);
      if (now - since < lostAfterMs) continue;
      const [kind, id] = suspect.split(/:(.*)/s) as [string, string];
      (kind === "pool" ? lostPools : strandedJobs).push(id);
      suspectSince.delete(suspect);
    }
    if (lostPools.length > 0) {
      await core.db.execute(sql`select graphile_worker.force_unlock_workers(array[${sql.join(lostPools.map((id) => sql`${id}`), sql`, `)}]::text[])`);
      core.log.warn({ worker_pools: lostPools, lost_after_ms: lostAfterMs }, "unlocked the jobs of worker processes that are gone");
    }
    if (strandedJobs.length > 0) {
      // graphile-worker has no public function for single jobs; this is what force_unlock_workers does, per job.
      await core.db.execute(sql`
        update ${sql.raw(GRAPHILE_JOBS_TABLE)} set locked_at = null, locked_by = null
        where id = any(array[${sql.join(strandedJobs.map((id) => sql`${id}`), sql`, `)}]::bigint[]) and locked_by = ${pool.id}`);
      core.log.warn({ job_ids: strandedJobs, lost_after_ms: lostAfterMs }, "unlocked jobs whose end could not be recorded");
    }
  }

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const loop = () => {
    running = round()
      .catch(onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, intervalMs);
      });
  };
  loop();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await liveness.end({ timeout: 5 });
    },
  };
}
