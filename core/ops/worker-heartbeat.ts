import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import type { Db } from "../db/client.js";

// A worker that is taking jobs says so without a table of its own: one dedicated connection whose
// application_name it rewrites at every beat to "svc-worker <worker id> <database time, Unix milliseconds>".
// pg_stat_activity shows every session's application_name to every role (its timestamps only to the same role
// or pg_read_all_stats), so any REST or MCP replica can count the workers alive, and a worker that stops
// beating, or whose process dies, drops out by itself.
const PREFIX = "svc-worker";

// Stale after three missed beats: one late beat is not an outage.
export const STALE_AFTER_BEATS = 3;

// Short enough for application_name (63 bytes with the prefix and the timestamp), unique per process, and
// readable: the machine and the pid say where to look.
export function newWorkerId(): string {
  const host = hostname().replace(/[^A-Za-z0-9.-]/g, "").slice(0, 20) || "host";
  return `${host}-${process.pid}-${randomBytes(2).toString("hex")}`;
}

export interface WorkerHeartbeat {
  // Beats at once and then every interval while `takingJobs()` says so.
  stop(): Promise<void>;
}

export function startWorkerHeartbeat(
  databaseUrl: string,
  workerId: string,
  intervalMs: number,
  takingJobs: () => boolean,
  onError: (error: unknown) => void,
): WorkerHeartbeat {
  const connection = postgres(databaseUrl, { max: 1, onnotice: () => {}, connection: { application_name: `${PREFIX} ${workerId} starting` } });
  let beating: Promise<unknown> = Promise.resolve();
  const beat = () => {
    if (!takingJobs()) return;
    beating = connection`
      select set_config('application_name', ${`${PREFIX} ${workerId} `} || floor(extract(epoch from now()) * 1000)::bigint, false)`.catch(onError);
  };
  beat();
  const timer = setInterval(beat, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await beating;
      // Ending the session removes the worker from pg_stat_activity at once.
      await connection.end({ timeout: 5 });
    },
  };
}

export interface WorkerPresence {
  // Workers whose last beat is at most `staleAfterSeconds` old, with that age.
  alive: { workerId: string; lastBeatSecondsAgo: number }[];
  staleAfterSeconds: number;
}

export async function readWorkerPresence(db: Db, intervalMs: number): Promise<WorkerPresence> {
  const rows = await db.execute<{ application_name: string; now: number }>(sql`
    select application_name, (extract(epoch from now()) * 1000)::float8 as now
    from pg_stat_activity
    where datname = current_database() and application_name like ${`${PREFIX} %`}`);
  const staleAfterSeconds = (STALE_AFTER_BEATS * intervalMs) / 1000;
  const alive: WorkerPresence["alive"] = [];
  for (const row of rows) {
    const [, workerId, beatAt] = row.application_name.split(" ");
    const age = (Number(row.now) - Number(beatAt)) / 1000;
    if (workerId && Number.isFinite(age) && age <= staleAfterSeconds) alive.push({ workerId, lastBeatSecondsAgo: Math.max(0, Math.round(age * 10) / 10) });
  }
  return { alive, staleAfterSeconds };
}
