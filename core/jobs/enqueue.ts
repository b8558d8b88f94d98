import { sql } from "drizzle-orm";
import type { Executor } from "../db/client.js";

export type JobName = "execute_task" | "poll_task" | "deliver_callback";

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
      max_attempts := ${options.maxAttempts ?? 25}::int,
      job_key := ${options.jobKey ?? null}::text
    )`);
}
