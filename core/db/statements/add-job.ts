import { sql } from "drizzle-orm";
import type { Executor } from "../client.js";

export type JobName = "execute_task" | "poll_task" | "deliver_callback";

// graphile-worker's own default, stated so that single, batched (admission) and deferred (task starts) jobs agree.
export const DEFAULT_MAX_ATTEMPTS = 25;

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
