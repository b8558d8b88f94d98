import { sql } from "drizzle-orm";
import { runLoad } from "../load.js";
import type { RunningService } from "../service.js";
import { SETTINGS } from "../settings.js";
import { until } from "../stats.js";
import { inTurn, ofTenants, type Tenant } from "../tenants.js";
import { bearer, uniqueKeys } from "./admission.js";

// Throughput to completion: `count` tasks admitted while no worker runs, then one worker process drains them.
// Tasks per second is counted from the first task's start to the last one's end, as the no-op reference counts
// from its first job's start to its last job's end. The tasks are one tenant's, or spread over several in turn.

export interface TaskKind {
  path: string;
  body: string;
}

export interface Completion {
  tasks: number;
  tasksPerSecond: number;
}

export async function createTasks(service: RunningService, tenants: readonly Tenant[], kind: TaskKind, count: number): Promise<void> {
  const key = uniqueKeys();
  const headers = tenants.map((tenant) => ({ ...bearer(tenant.apiKey), "content-type": "application/json" }));
  let n = 0;
  await runLoad({
    url: service.restUrl,
    connections: Math.min(SETTINGS.connections, count),
    amount: count,
    expectStatus: 202,
    next: () => ({ method: "POST", path: kind.path, headers: { ...inTurn(headers, n++), "idempotency-key": key() }, body: kind.body }),
  });
}

// Waits until every task of the tenants has ended, and insists that each one succeeded.
export async function awaitAllSucceeded(service: RunningService, tenants: readonly Tenant[], timeoutMs: number): Promise<void> {
  const open = async () => {
    const rows = await service.core.db.execute<{ n: number }>(
      sql`select count(*)::int as n from tasks where ${ofTenants(tenants)} and status in ('queued', 'running')`,
    );
    return rows[0]?.n ?? 0;
  };
  const whose = tenants.map((tenant) => tenant.tenantId).join(", ");
  await until(`the tasks of ${whose} to finish`, async () => (await open()) === 0, timeoutMs, 200);
  const failed = await service.core.db.execute<{ status: string; code: string | null; n: number }>(sql`
    select status, error->>'code' as code, count(*)::int as n from tasks
     where ${ofTenants(tenants)} and status <> 'succeeded' group by 1, 2`);
  if (failed.length > 0) throw new Error(`tasks did not all succeed: ${JSON.stringify([...failed])}`);
}

export async function measureCompletion(
  service: RunningService,
  tenants: readonly Tenant[],
  kind: TaskKind,
  count: number,
): Promise<Completion> {
  await service.stopWorker();
  await createTasks(service, tenants, kind, count);
  await service.startWorker();
  await awaitAllSucceeded(service, tenants, 300_000);
  const rows = await service.core.db.execute<{ n: number; seconds: number }>(sql`
    select count(*)::int as n, extract(epoch from max(completed_at) - min(started_at))::float8 as seconds
      from tasks where ${ofTenants(tenants)}`);
  const n = rows[0]?.n ?? 0;
  return { tasks: n, tasksPerSecond: n / (rows[0]?.seconds ?? Number.NaN) };
}
