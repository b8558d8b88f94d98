import type { Config } from "../config.js";
import type { ReadSql } from "../db/client.js";
import { ProviderFailure } from "../providers/types.js";
import { applyFailure, applyOutcome, DEADLINE_PASSED, type FailureRuntime, type OutcomeRuntime } from "./advance.js";
import { finishUnsuccessfully } from "./finish.js";
import { inputForVendor, type ResolvedMediaMap } from "./media-inputs.js";
import { readTask } from "./task-reads.js";
import { stopVendorJob, type VendorStopRuntime } from "./vendor-stop.js";

// The parts of the runtime a poll uses: the task's reading, the adapters and the signer of the media URLs a vendor
// is given, and what applying the vendor's answer and stopping its job use.
export interface PollRuntime extends OutcomeRuntime, FailureRuntime, VendorStopRuntime {
  reads: ReadSql;
  config: Pick<Config, "providers" | "outboundAllowLoopbackHttp" | "providerRetryBaseMs">;
}

// One run of the poll_task job: look at a vendor job once. Between polls the task is only a row and a scheduled
// job, so thousands of long tasks in flight cost no worker slots. A requested cancel, or a passed deadline, ends
// the task with a full refund and then stops the vendor job (best effort), once: two poll jobs of one task can run
// together (a cancel brings one forward while another runs), and only the one whose ending took effect calls the
// vendor.
export async function pollTask(core: PollRuntime, taskId: string, signal: AbortSignal): Promise<void> {
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
