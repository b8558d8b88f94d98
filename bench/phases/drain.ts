import { sql } from "drizzle-orm";
import type { RunningService } from "../service.js";
import { SETTINGS } from "../settings.js";
import type { SlowOrigin } from "../slow-origin.js";
import { inTurn, ofTenants, type Tenant } from "../tenants.js";
import { bearer, uniqueKeys } from "./admission.js";
import { awaitAllSucceeded } from "./completion.js";

// One tenant's drain against two tenants' drain of the same worker-holding work: image-understanding tasks whose
// input image downloads slowly from `origin`, so each holds a worker for the download's time. The tasks arrive as
// a user's burst does, all at once at a running worker; a drain is timed from the first task's admission to the
// last one's end. A fair share that leaves no worker idle drains one tenant's burst as fast as two tenants' (the
// same tasks, the same workers); a share that caps a tenant alone below the worker takes longer.

export interface Drain {
  workerConcurrency: number;
  tasks: number;
  oneTenantSeconds: number;
  twoTenantsSeconds: number;
}

const DRAIN_TIMEOUT_MS = 300_000;

function understandingBody(origin: SlowOrigin): string {
  return JSON.stringify({ model: "vendorA-M3", prompt: "What is in this photo?", images: [{ type: "url", url: origin.imageUrl }] });
}

// `owners[i]` admits the i-th task; every task must be admitted.
async function drainSeconds(service: RunningService, origin: SlowOrigin, owners: Tenant[]): Promise<number> {
  const key = uniqueKeys();
  const body = understandingBody(origin);
  const downloadsBefore = origin.downloads();
  await Promise.all(
    owners.map(async (owner) => {
      const response = await fetch(`${service.restUrl}/v1/images/responses`, {
        method: "POST",
        headers: { ...bearer(owner.apiKey), "content-type": "application/json", "idempotency-key": key() },
        body,
      });
      if (response.status !== 202) throw new Error(`admission answered ${response.status}: ${await response.text()}`);
    }),
  );
  const tenants = [...new Set(owners)];
  await awaitAllSucceeded(service, tenants, DRAIN_TIMEOUT_MS);
  // Each task fetched its image once, so each held a worker for a slow download.
  if (origin.downloads() - downloadsBefore !== owners.length) {
    throw new Error(`${origin.downloads() - downloadsBefore} downloads for ${owners.length} tasks`);
  }
  const rows = await service.core.db.execute<{ seconds: number }>(sql`
    select extract(epoch from max(completed_at) - min(created_at))::float8 as seconds from tasks where ${ofTenants(tenants)}`);
  return rows[0]?.seconds ?? Number.NaN;
}

// Needs a service whose worker may fetch from `origin` (OUTBOUND_ALLOW_LOOPBACK_HTTP) and with no other work.
export async function measureDrain(service: RunningService, origin: SlowOrigin, credits: string): Promise<Drain> {
  await service.startWorker();
  // One task first, so that neither measured drain pays for the processes' first task (connections, compilation).
  await drainSeconds(service, origin, [await service.newTenant(credits)]);
  const alone = await service.newTenant(credits);
  const oneTenantSeconds = await drainSeconds(service, origin, Array.from({ length: SETTINGS.drainTasks }, () => alone));
  const pair = [await service.newTenant(credits), await service.newTenant(credits)];
  const twoTenantsSeconds = await drainSeconds(service, origin, Array.from({ length: SETTINGS.drainTasks }, (_, i) => inTurn(pair, i)));
  return { workerConcurrency: service.workerConcurrency, tasks: SETTINGS.drainTasks, oneTenantSeconds, twoTenantsSeconds };
}
