import http from "node:http";
import { sql } from "drizzle-orm";
import type { RunningService } from "../service.js";
import { postJson } from "../http-post.js";
import { SETTINGS } from "../settings.js";
import { percentile, sleep } from "../stats.js";
import { bearer, uniqueKeys } from "./admission.js";
import { awaitAllSucceeded, type TaskKind } from "./completion.js";

// From admission to `running`: tasks created one at a time, a little apart, with an idle worker running. Each is
// timed from just before the benchmark sends its request (this process's clock, in fractions of a millisecond, as
// the no-op reference times its enqueue) to the moment its start was recorded: the `running` event's time, which
// is the start transaction's own (Postgres' clock, in microseconds, on this one machine). The task's `created_at`
// and `started_at` are kept to the millisecond, too coarse for a median of 2 or 3 ms.
//
// The requests go out on one kept-alive connection through node:http, the leanest client Node has, as the
// reference's enqueue goes through postgres.js: Node's fetch (undici) spent 1 to 1.5 ms more of its own per
// request on an idle machine here (7.4 against 5.6 ms for the same creates, 2.1 against 1.4 ms for GET /healthz),
// which is the client's time, not the service's.

export interface AdmissionToRunning {
  samples: number;
  p50Ms: number;
  p99Ms: number;
}

export async function measureAdmissionToRunning(
  service: RunningService,
  tenant: { tenantId: string; apiKey: string },
  kind: TaskKind,
): Promise<AdmissionToRunning> {
  await service.startWorker();
  const key = uniqueKeys();
  const sentAt = new Map<string, number>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let n = 0; n < SETTINGS.latencySamples; n++) {
      const sent = performance.timeOrigin + performance.now();
      const headers = { ...bearer(tenant.apiKey), "idempotency-key": key() };
      const response = await postJson(`${service.restUrl}${kind.path}`, headers, kind.body, agent);
      if (response.status !== 202) throw new Error(`admission answered ${response.status}: ${response.body}`);
      sentAt.set((JSON.parse(response.body) as { task_id: string }).task_id, sent);
      await sleep(SETTINGS.latencySpacingMs);
    }
  } finally {
    agent.destroy();
  }
  await awaitAllSucceeded(service, tenant.tenantId, 60_000);
  const rows = await service.core.db.execute<{ task_id: string; at_ms: number }>(sql`
    select e.task_id, extract(epoch from min(e.created_at))::float8 * 1000 as at_ms
      from task_events e join tasks t on t.id = e.task_id
     where t.tenant_id = ${tenant.tenantId} and e.kind = 'status' and e.status = 'running'
     group by e.task_id`);
  const waits = rows.map((r) => r.at_ms - (sentAt.get(r.task_id) ?? Number.NaN));
  if (waits.length !== sentAt.size || waits.some((wait) => !Number.isFinite(wait))) {
    throw new Error(`found the start of ${waits.length} of ${sentAt.size} tasks`);
  }
  return { samples: waits.length, p50Ms: percentile(waits, 50), p99Ms: percentile(waits, 99) };
}
