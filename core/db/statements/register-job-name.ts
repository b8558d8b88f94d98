import type { AdmissionTx } from "../client.js";
import type { JobName } from "./add-job.js";
import { GRAPHILE_TASKS_TABLE } from "./graphile-jobs.js";

// Inside an admission transaction, before its write statement adds the jobs (admit-tasks.ts, insertJobs):
// the job name registered as graphile-worker's add_jobs registers it. When another transaction registers the same
// name first, this insert waits for its commit and does nothing, and only a later statement's snapshot sees the
// row it committed (docs/workarounds.md #6). It answers no rows.
export async function registerJobName(sql: AdmissionTx, name: JobName): Promise<void> {
  await sql`insert into ${sql.unsafe(GRAPHILE_TASKS_TABLE)} (identifier) values (${name}) on conflict do nothing`;
}
