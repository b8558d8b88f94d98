import { ProviderFailure } from "../providers/types.js";
import type { Core } from "../runtime.js";
import { applyFailure, applyOutcome, DEADLINE_PASSED } from "./advance.js";
import { finishUnsuccessfully } from "./finish.js";
import { inputForVendor, type ResolvedMediaMap } from "./media-inputs.js";
import { readTask } from "./task-reads.js";
import { stopVendorJob } from "./vendor-stop.js";

// One run of the poll_task job: look at a vendor job once. Between polls the task is only a row and a scheduled
// job, so thousands of long tasks in flight cost no worker slots. A requested cancel, or a passed deadline, ends
// the task with a full refund and then stops the vendor job (best effort), once: two poll jobs of one task can run
// together (a cancel brings one forward while another runs), and only the one whose ending took effect calls the
// vendor.
export async function pollTask(core: Core, taskId: string, signal: AbortSignal): Promise<void> {
  const task = await readTask(core.reads, taskId);
  if (!task || task.status !== "running" || !task.providerRef) return;
  const adapter = core.providers.get(task.providerFamily);
  if (task.cancelRequestedAt && adapter?.supportsCancel) {
    if (await finishUnsuccessfully(core, taskId, "cancel", null)) await stopVendorJob(core, task, signal);
    return;
  }
  if (task.deadlineAt <= core.clock()) {
    if (await finishUnsuccessfully(core, taskId, "fail", DEADLINE_PASSED)) await stopVendorJob(core, task, signal);
    return;
  }
  if (!adapter?.poll) {
    await finishUnsuccessfully(core, taskId, "fail", {
      code: "model_unavailable",
      message: `vendor family ${task.providerFamily} cannot be polled for ${task.resolvedModel}`,
    });
    return;
  }
  const input = inputForVendor(task, (task.resolvedMedia ?? {}) as ResolvedMediaMap, core.signer, core.clock());
  const request = { taskId, capability: task.capability, model: task.resolvedModel, input };
  try {
    await applyOutcome(core, task, await adapter.poll(task.providerRef, request, signal), signal);
  } catch (error) {
    if (!(error instanceof ProviderFailure)) throw error;
    await applyFailure(core, task, error, "poll_task");
  }
}
