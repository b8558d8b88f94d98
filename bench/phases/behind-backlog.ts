import { sql } from "drizzle-orm";
import type { RunningService } from "../service.js";
import type { Tenant } from "../tenants.js";
import { createTasks, awaitAllSucceeded, type TaskKind } from "./completion.js";
import { summarize, timeAdmissions, type AdmissionToRunning } from "./latency.js";

// Another tenant's admission → `running` while one tenant has a backlog: tenant A's `backlog` plain tasks are
// admitted with no worker running, the worker starts on them, and tenant B creates tasks one at a time as the
// latency phase does. A fair share starts B's task at the next free worker, not behind A's queue. Whether A still
// had tasks waiting is counted per sample (B's request sent before A's last task started), since a fast worker may
// drain A's backlog before B's last sample: only those samples measure the case.

export interface BehindBacklog extends AdmissionToRunning {
  backlog: number;
  // Samples sent while A still had tasks queued.
  duringBacklog: number;
}

const BACKLOG_TIMEOUT_MS = 300_000;

export async function measureBehindBacklog(
  service: RunningService,
  busy: Tenant,
  other: Tenant,
  kind: TaskKind,
  counts: { backlog: number; samples: number },
): Promise<BehindBacklog> {
  await service.stopWorker();
  await createTasks(service, [busy], kind, counts.backlog);
  const samples = await timeAdmissions(service, [other], kind, counts.samples);
  await awaitAllSucceeded(service, [busy], BACKLOG_TIMEOUT_MS);
  const rows = await service.core.db.execute<{ last_start_ms: number }>(sql`
    select extract(epoch from max(started_at))::float8 * 1000 as last_start_ms from tasks where tenant_id = ${busy.tenantId}`);
  const lastStartMs = rows[0]?.last_start_ms ?? Number.NaN;
  return {
    ...summarize(samples),
    backlog: counts.backlog,
    duringBacklog: samples.filter((sample) => sample.sentAtMs < lastStartMs).length,
  };
}
