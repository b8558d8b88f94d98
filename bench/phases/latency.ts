import { sql } from "drizzle-orm";
import type { RunningService } from "../service.js";
import { SETTINGS } from "../settings.js";
import { percentile, sleep } from "../stats.js";
import { bearer, uniqueKeys } from "./admission.js";
import { awaitAllSucceeded, type TaskKind } from "./completion.js";

// From admission to `running`: tasks created one at a time, a little apart, with an idle worker running. The
// figure is the task's own record: `started_at` (the worker began executing it) minus `created_at` (admission
// began), both from the processes' clocks on this one machine.

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
  for (let n = 0; n < SETTINGS.latencySamples; n++) {
    const response = await fetch(`${service.restUrl}${kind.path}`, {
      method: "POST",
      headers: { ...bearer(tenant.apiKey), "content-type": "application/json", "idempotency-key": key() },
      body: kind.body,
    });
    if (response.status !== 202) throw new Error(`admission answered ${response.status}: ${await response.text()}`);
    await sleep(SETTINGS.latencySpacingMs);
  }
  await awaitAllSucceeded(service, tenant.tenantId, 60_000);
  const rows = await service.core.db.execute<{ ms: number }>(sql`
    select extract(epoch from started_at - created_at)::float8 * 1000 as ms from tasks where tenant_id = ${tenant.tenantId}`);
  const waits = rows.map((r) => r.ms);
  return { samples: waits.length, p50Ms: percentile(waits, 50), p99Ms: percentile(waits, 99) };
}
