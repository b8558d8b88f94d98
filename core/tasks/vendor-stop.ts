import type { ArtifactUrlSigner } from "../artifacts/signed-url.js";
import type { Clock } from "../clock.js";
import type { ProviderRegistry } from "../providers/registry.js";
import { inputForVendor, type ResolvedMediaMap } from "./media-inputs.js";
import type { TaskRow } from "./repository.js";

// The parts of the runtime a stop uses: the adapters, and the signer and clock of the media URLs a vendor's cancel
// is given, as its submission was.
export interface VendorStopRuntime {
  providers: Pick<ProviderRegistry, "get">;
  signer: ArtifactUrlSigner;
  clock: Clock;
}

// Stops a task's job at its vendor, when the vendor has a cancel: best effort, after the task has ended on a cancel
// request or a passed deadline (it ends whatever the vendor answers), so a failure here is not an error. A worker
// that dies between the two leaves the vendor's job to run out on its own; the task and its refund are settled. Without it a vendor
// would go on generating, and billing us for, media nobody will receive.
export async function stopVendorJob(core: VendorStopRuntime, task: TaskRow, signal: AbortSignal): Promise<void> {
  const adapter = core.providers.get(task.providerFamily);
  if (!adapter?.cancel || !task.providerRef) return;
  const input = inputForVendor(task, (task.resolvedMedia ?? {}) as ResolvedMediaMap, core.signer, core.clock());
  const request = { taskId: task.id, capability: task.capability, model: task.resolvedModel, input };
  await adapter.cancel(task.providerRef, request, signal).catch(() => undefined);
}
