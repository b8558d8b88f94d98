import { sql } from "drizzle-orm";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { checkMigrations } from "./migrations-check.js";
import { withinTime } from "./time-limit.js";
import { readWorkerPresence } from "./worker-heartbeat.js";

// The parts of the runtime the shared checks use.
export interface ReadinessRuntime {
  db: Db;
  config: Pick<Config, "workerHeartbeatIntervalMs">;
}

export interface CheckResult {
  ok: boolean;
  [detail: string]: unknown;
}

export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

// A readiness probe must answer even when Postgres does not: each query gets this long.
const CHECK_TIMEOUT_MS = 2000;

function withinTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  return withinTime(work, CHECK_TIMEOUT_MS, () => {
    throw new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`);
  });
}

// The innermost cause says what went wrong (drizzle wraps a refused connection in "Failed query: …").
function failed(error: unknown): CheckResult {
  let cause = error as Error;
  while (cause.cause instanceof Error) cause = cause.cause;
  return { ok: false, reason: cause.message || String(cause) };
}

// Once the database has every migration this code expects it keeps them (migrations are additive), so a
// positive answer is remembered per core and later probes cost one query less.
const migrationsCurrent = new WeakSet<ReadinessRuntime>();

async function migrationsCheck(core: ReadinessRuntime): Promise<CheckResult> {
  if (migrationsCurrent.has(core)) return { ok: true };
  const status = await withinTimeout(checkMigrations(core.db), "the migrations check");
  if (status.current) migrationsCurrent.add(core);
  return status.current ? { ok: true } : { ok: false, reason: `the database is not migrated through ${status.expected}` };
}

async function workersCheck(core: ReadinessRuntime): Promise<CheckResult> {
  const presence = await withinTimeout(readWorkerPresence(core.db, core.config.workerHeartbeatIntervalMs), "the worker heartbeat read");
  const alive = presence.alive.length;
  return {
    ok: alive > 0,
    alive,
    workers: presence.alive.map((w) => ({ worker_id: w.workerId, last_beat_seconds_ago: w.lastBeatSecondsAgo })),
    ...(alive === 0 ? { reason: `no worker has reported taking jobs in the last ${presence.staleAfterSeconds} s: admitted tasks would wait` } : {}),
  };
}

// Readiness of a process: the database answers and carries every migration; for the servers that admit work
// (REST, MCP) also that some worker is taking jobs; `own` adds the process's own checks (the worker's intake,
// a shutdown in progress). Ready only when every check is ok.
export async function checkReadiness(
  core: ReadinessRuntime,
  options: { workers: boolean; own?: Record<string, CheckResult> },
): Promise<Readiness> {
  const checks: Record<string, CheckResult> = { ...options.own };
  try {
    await withinTimeout(core.db.execute(sql`select 1`), "the database");
    checks.database = { ok: true };
  } catch (error) {
    checks.database = failed(error);
    return { ready: false, checks };
  }
  const [migrations, workers] = await Promise.all([
    migrationsCheck(core).catch(failed),
    options.workers ? workersCheck(core).catch(failed) : Promise.resolve(null),
  ]);
  checks.migrations = migrations;
  if (workers) checks.workers = workers;
  return { ready: Object.values(checks).every((check) => check.ok), checks };
}
