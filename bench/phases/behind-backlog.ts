import { sql } from "drizzle-orm";
import type { RunningService } from "../service.js";
import type { Tenant } from "../tenants.js";
import { createTasks, awaitAllSucceeded, type TaskKind } from "./completion.js";
import { summarize, timeAdmissions, type AdmissionToRunning } from "./latency.js";

// Another tenant's admission → `running` while one tenant has a backlog: tenant A's `backlog` plain tasks are
// admitted with no worker running, the worker starts on them, and tenant B creates tasks one at a time as the
// latency phase does. A fair share starts B's task at the next free worker, not behind A's queue. A fast worker may
// drain A's backlog before B's last sample, so only the samples sent while A still had tasks queued (before A's
// last task started) are summarized; when B's task started does not decide which ones count.

export interface BehindBacklog extends AdmissionToRunning {
  backlog: number;
  // B's tasks sent in all; `samples` of them were sent while A still had tasks queued.
  sent: number;
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
  return { ...summarize(samples.filter((sample) => sample.sentAtMs < lastStartMs)), backlog: counts.backlog, sent: samples.length };
}
