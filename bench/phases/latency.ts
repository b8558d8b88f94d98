import http from "node:http";
import { sql } from "drizzle-orm";
import type { RunningService } from "../service.js";
import { postJson } from "../http-post.js";
import { SETTINGS } from "../settings.js";
import { percentile, sleep } from "../stats.js";
import { inTurn, ofTenants, type Tenant } from "../tenants.js";
import { bearer, uniqueKeys } from "./admission.js";
import { awaitAllSucceeded, type TaskKind } from "./completion.js";

// From admission to `running`: tasks created one at a time, a little apart, with an idle worker running, all of
// one tenant or of several in turn. Each is timed from just before the benchmark sends its request (this process's
// clock, in fractions of a millisecond, as the no-op reference times its enqueue) to the moment its start was
// recorded: the `running` event's time, which is the start transaction's own (Postgres' clock, in microseconds, on
// this one machine). The task's `created_at` and `started_at` are kept to the millisecond, too coarse for a median
// of 2 or 3 ms.
//
// The requests go out on one kept-alive connection through node:http, the leanest client Node has, as the
// reference's enqueue goes through postgres.js: Node's fetch (undici) spent 1 to 1.5 ms more of its own per
// request on an idle machine here (7.4 against 5.6 ms for the same creates, 2.1 against 1.4 ms for GET /healthz),
// which is the client's time, not the service's.

// Long enough for tasks admitted behind another tenant's backlog to be started by an unfair scheduler too, so the
// row reports how long they waited instead of failing the run.
const START_TIMEOUT_MS = 300_000;

export interface AdmissionToRunning {
  samples: number;
  p50Ms: number;
  p99Ms: number;
}

// One task's admission: when its request was sent (this process' clock) and its `running` event's time, both in
// milliseconds since the epoch.
export interface AdmissionSample {
  sentAtMs: number;
  runningAtMs: number;
}

// Creates `samples` tasks one at a time, `SETTINGS.latencySpacingMs` apart, the tenants in turn, and waits until
// they have all succeeded.
export async function timeAdmissions(service: RunningService, tenants: readonly Tenant[], kind: TaskKind, samples: number): Promise<AdmissionSample[]> {
  await service.startWorker();
  const key = uniqueKeys();
  const sentAt = new Map<string, number>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let n = 0; n < samples; n++) {
      const sent = performance.timeOrigin + performance.now();
      const headers = { ...bearer(inTurn(tenants, n).apiKey), "idempotency-key": key() };
      const response = await postJson(`${service.restUrl}${kind.path}`, headers, kind.body, agent);
      if (response.status !== 202) throw new Error(`admission answered ${response.status}: ${response.body}`);
      sentAt.set((JSON.parse(response.body) as { task_id: string }).task_id, sent);
      await sleep(SETTINGS.latencySpacingMs);
    }
  } finally {
    agent.destroy();
  }
  await awaitAllSucceeded(service, tenants, START_TIMEOUT_MS);
  const rows = await service.core.db.execute<{ task_id: string; at_ms: number }>(sql`
    select e.task_id, extract(epoch from min(e.created_at))::float8 * 1000 as at_ms
      from task_events e
     where e.task_id in (select id from tasks where ${ofTenants(tenants)}) and e.kind = 'status' and e.status = 'running'
     group by e.task_id`);
  // The tenants' earlier tasks (a warm-up's) are not this call's.
  const timed = rows.flatMap((r) => {
    const sentAtMs = sentAt.get(r.task_id);
    return sentAtMs === undefined ? [] : [{ sentAtMs, runningAtMs: r.at_ms }];
  });
  if (timed.length !== sentAt.size) {
    throw new Error(`found the start of ${timed.length} of ${sentAt.size} tasks`);
  }
  return timed;
}

export function summarize(samples: readonly AdmissionSample[]): AdmissionToRunning {
  const waits = samples.map((sample) => sample.runningAtMs - sample.sentAtMs);
  return { samples: waits.length, p50Ms: percentile(waits, 50), p99Ms: percentile(waits, 99) };
}

// After a warm-up of the same tasks, whose times are dropped.
export async function measureAdmissionToRunning(service: RunningService, tenants: readonly Tenant[], kind: TaskKind): Promise<AdmissionToRunning> {
  await timeAdmissions(service, tenants, kind, SETTINGS.latencyWarmup);
  return summarize(await timeAdmissions(service, tenants, kind, SETTINGS.latencySamples));
}
