import { sql } from "drizzle-orm";
import type postgres from "postgres";
import type { AdmissionSql, Executor } from "../db/client.js";
import type { Fragment } from "../db/one-statement.js";

export type JobName = "execute_task" | "poll_task" | "deliver_callback";

// graphile-worker's own default, stated so that single and batched enqueues agree.
const DEFAULT_MAX_ATTEMPTS = 25;

export interface JobOptions {
  runAt?: Date;
  maxAttempts?: number;
  jobKey?: string;
  // graphile-worker runs due jobs lowest priority first (0 unless given).
  priority?: number;
}

// Jobs are added with graphile-worker's SQL function inside the caller's transaction, so a task and its job
// commit together or not at all. Answers the job's id (what a task's execution token names).
export async function enqueueJob(tx: Executor, name: JobName, payload: Record<string, unknown>, options: JobOptions = {}): Promise<string> {
  const rows = await tx.execute<{ id: string }>(sql`
    select (graphile_worker.add_job(
      ${name}::text,
      ${JSON.stringify(payload)}::json,
      run_at := ${options.runAt ? options.runAt.toISOString() : null}::timestamptz,
      max_attempts := ${options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS}::int,
      job_key := ${options.jobKey ?? null}::text,
      priority := ${options.priority ?? 0}::int
    )).id::text as id`);
  return (rows[0] as { id: string }).id;
}

// Many jobs of one kind, without keys, added by one INSERT into graphile-worker's job table, inside a transaction on
// a direct connection, and announced by one NOTIFY as graphile_worker.add_jobs announces them. add_jobs itself is
// not used for these: before inserting it clears the keys its specs name with an UPDATE whose plan PL/pgSQL caches
// while the job table is small, and that plan scans the whole table on every later call (2.5 ms per admission
// batch at 50,000 queued jobs, 55 % of the database's time in the create benchmark; docs/workarounds.md). Jobs
// without keys need none of it. The columns left out take graphile-worker's defaults, as add_jobs' do.
//
// Three parts: the job name registered by a statement of its own before the write, as add_jobs registers it
// (core/db/statements/register-job-name.ts); the insert, a step of the transaction's one write
// statement (core/db/one-statement.ts), returning a row per job; the announcement, in that statement's main query.

export function insertJobs(sql: AdmissionSql, name: JobName, payloads: readonly Record<string, unknown>[]): Fragment {
  return sql`
    insert into graphile_worker._private_jobs (task_id, payload, max_attempts)
    select (select id from graphile_worker._private_tasks where identifier = ${name}), p, ${DEFAULT_MAX_ATTEMPTS}
      from json_array_elements(${sql.json(payloads as postgres.JSONValue)}::json) as p
    returning 1`;
}

// The NOTIFY of the jobs the step named `step` (an insertJobs) added.
export function announceJobs(sql: AdmissionSql, step: string): Fragment {
  return sql`pg_notify('jobs:insert', json_build_object('r', random(), 'count', (select count(*) from ${sql.unsafe(step)}))::text)`;
}
