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

// Many jobs of one kind in one call of graphile_worker.add_jobs, inside a transaction on a direct connection. One
// call sends one NOTIFY, where add_job sends one per job, and commits that notify are serialized by Postgres.
export async function enqueueJobsDirect(sql: AdmissionSql, name: JobName, payloads: readonly Record<string, unknown>[]) {
  await sql`
    select count(*) from graphile_worker.add_jobs(array(
      select (${name}::text, p, null::text, null::timestamptz, ${DEFAULT_MAX_ATTEMPTS}::smallint, null::text, null::smallint, null::text[])::graphile_worker.job_spec
        from json_array_elements(${sql.json(payloads as postgres.JSONValue)}::json) as p))`;
}
