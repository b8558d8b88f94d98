import type { Core } from "../core/index.js";

// Errors of a database that is restarting or out of reach: refused or dropped connections, sessions ended by
// the server (admin or crash shutdown, still starting), connection-class SQLSTATEs, and postgres.js's own codes
// for a connection lost or given up.
const CONNECTION_FAILURE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

// pg's own messages for a lost connection, and Postgres' messages for the SQLSTATEs above (57P01–57P03), which a
// wrapping error keeps without the code.
const CONNECTION_FAILURE_MESSAGE =
  /Connection terminated|Client has encountered a connection error|terminating connection due to|the database system is (shutting down|starting up|in recovery mode|not (yet )?accepting connections)/;

// The local queue's return of its jobs at shutdown (worker/runner.ts) fails with a new Error that keeps only the
// cause's message, e.g. "…to database queue: connect ECONNREFUSED 127.0.0.1:5432" or "…: the database system is
// shutting down".
const UNRETURNED_JOBS = /^Error occurred whilst returning jobs from local queue to database queue: (.*)$/s;

export function isDatabaseConnectionFailure(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  const code = (reason as { code?: unknown }).code;
  if (typeof code === "string" && (CONNECTION_FAILURE_CODES.has(code) || code.startsWith("08"))) return true;
  const unreturned = UNRETURNED_JOBS.exec(reason.message)?.[1];
  if (unreturned !== undefined) {
    return CONNECTION_FAILURE_MESSAGE.test(unreturned) || [...CONNECTION_FAILURE_CODES].some((failure) => unreturned.includes(failure));
  }
  return CONNECTION_FAILURE_MESSAGE.test(reason.message);
}

let installed = false;

// graphile-worker 0.17 records the end of a job (complete or fail) in a promise nothing awaits, and so does its
// local queue when it gives its jobs back at shutdown: when the database is unreachable at that moment the
// rejection goes unhandled and Node ends the process, a worker crash caused by a database restart. Such a job is
// not lost: it stays locked by this live pool until the lost-worker sweep
// (core/jobs/lost-workers.ts) gives it back. So the process lets exactly these rejections pass, logged, and keeps
// Node's default, ending the process, for every other unhandled rejection.
export function surviveUnrecordedJobEnds(core: Core): void {
  if (installed) return;
  installed = true;
  process.on("unhandledRejection", (reason) => {
    if (!isDatabaseConnectionFailure(reason)) throw reason;
    core.log.warn({ err: reason }, "a job's end could not be recorded (database unreachable); the job will be unlocked and run again");
  });
}
