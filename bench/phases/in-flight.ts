import { sql } from "drizzle-orm";
import { PeakMemory } from "../memory.js";
import type { RunningService } from "../service.js";
import { SETTINGS, VIDEO_BODY } from "../settings.js";
import { sleep, until } from "../stats.js";
import { createTasks } from "./completion.js";

// Many long tasks in flight at once: the emulator is scripted to leave every vendorA video job running forever
// (the `hang` fault), so each task stays pending at the vendor while the worker polls it. The peak resident
// memory of each process is taken over the whole phase: admitting them, submitting them, and polling them.

export interface InFlight {
  tasks: number;
  peakBytes: Record<string, number>;
}

export async function measureInFlight(service: RunningService, tenant: { tenantId: string; apiKey: string }): Promise<InFlight> {
  const count = SETTINGS.inFlightTasks;
  const worker = await service.startWorker();
  const scripted = await fetch(`${service.emulatorUrl}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ family: "vendorA", model: "vendorA-h3", kind: "hang", times: count }),
  });
  if (scripted.status !== 201) throw new Error(`the emulator refused the hang fault: ${scripted.status}`);
  const memory = new PeakMemory({ rest: service.rest.pid, worker: worker.pid, emulator: service.emulator.pid });
  memory.start();
  let peakBytes: Record<string, number>;
  try {
    await createTasks(service, [tenant], { path: "/v1/videos/text-to-video", body: VIDEO_BODY }, count);
    const pendingAtVendor = async () => {
      const rows = await service.core.db.execute<{ n: number }>(sql`
        select count(*)::int as n from tasks where tenant_id = ${tenant.tenantId} and status = 'running' and provider_ref is not null`);
      return rows[0]?.n ?? 0;
    };
    await until(`${count} tasks pending at the emulator`, async () => (await pendingAtVendor()) === count, 300_000, 500);
    await sleep(SETTINGS.inFlightHoldSeconds * 1000);
    if ((await pendingAtVendor()) !== count) throw new Error("tasks left the vendor while they should all be pending");
  } finally {
    peakBytes = memory.stop();
  }
  return { tasks: count, peakBytes };
}
