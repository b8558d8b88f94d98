import { sql } from "drizzle-orm";
import type postgres from "postgres";
import type { AdmissionSql, Executor } from "../db/client.js";

export type JobName = "execute_task" | "poll_task" | "deliver_callback";

// graphile-worker's own default, stated so that single and batched enqueues agree.
const DEFAULT_MAX_ATTEMPTS = 25;

export interface JobOptions {
  runAt?: Date;
  maxAttempts?: number;
  jobKey?: string;
}

// Jobs are added with graphile-worker's SQL function inside the caller's transaction, so a task and its job
// commit together or not at all.
export async function enqueueJob(tx: Executor, name: JobName, payload: Record<string, unknown>, options: JobOptions = {}) {
  await tx.execute(sql`
    select graphile_worker.add_job(
      ${name}::text,
      ${JSON.stringify(payload)}::json,
      run_at := ${options.runAt ? options.runAt.toISOString() : null}::timestamptz,
      max_attempts := ${options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS}::int,
      job_key := ${options.jobKey ?? null}::text
    )`);
}

// Many jobs of one kind, without keys, added by one INSERT into graphile-worker's job table, inside a transaction on
// a direct connection, and announced by one NOTIFY as graphile_worker.add_jobs announces them. add_jobs itself is
// not used for these: before inserting it clears the keys its specs name with an UPDATE whose plan PL/pgSQL caches
// while the job table is small, and that plan scans the whole table on every later call (2.5 ms per admission
// batch at 50,000 queued jobs, 55 % of the database's time in the create benchmark; docs/workarounds.md). Jobs
// without keys need none of it. The columns left out take graphile-worker's defaults, as add_jobs' do.
// The job name is registered by a statement of its own, as add_jobs registers it: when another transaction
// registers the same name first, the insert waits for its commit and does nothing, and only a later statement's
// snapshot sees the row it committed (read within the same statement, the name's id would be missing).
export async function enqueueJobsDirect(sql: AdmissionSql, name: JobName, payloads: readonly Record<string, unknown>[]) {
  await Promise.all([
    sql`insert into graphile_worker._private_tasks (identifier) values (${name}) on conflict do nothing`,
    sql`
      with added as (
        insert into graphile_worker._private_jobs (task_id, payload, max_attempts)
        select (select id from graphile_worker._private_tasks where identifier = ${name}), p, ${DEFAULT_MAX_ATTEMPTS}
          from json_array_elements(${sql.json(payloads as postgres.JSONValue)}::json) as p
        returning 1
      )
      select pg_notify('jobs:insert', json_build_object('r', random(), 'count', (select count(*) from added))::text)`,
  ]);
}
