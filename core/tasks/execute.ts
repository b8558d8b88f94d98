import { ProviderFailure } from "../providers/types.js";
import type { Core } from "../runtime.js";
import { ServiceError } from "../errors/index.js";
import { applyFailure, applyOutcome, DEADLINE_PASSED, taskFailureOf } from "./advance.js";
import { ensureMediaResolved, inputForVendor } from "./media-inputs.js";
import { finishUnsuccessfully } from "./finish.js";
import { findTask, isTerminal, transitionTask } from "./repository.js";

// One run of the execute_task job: submit to the vendor. Safe to run again after a crash: a terminal task is left
// alone, and each finish is guarded so that a task ends exactly once.
export async function executeTask(core: Core, taskId: string, signal: AbortSignal): Promise<void> {
  const now = core.clock();
  const task = await findTask(core.db, taskId);
  if (!task || isTerminal(task.status)) return;
  if (task.deadlineAt <= now) {
    await finishUnsuccessfully(core, taskId, "failed", DEADLINE_PASSED);
    return;
  }
  const adapter = core.providers.get(task.providerFamily as never);
  if (!adapter) {
    await finishUnsuccessfully(core, taskId, "failed", {
      code: "model_unavailable",
      message: `model ${task.resolvedModel} is not available: no adapter for its vendor family ${task.providerFamily}`,
    });
    return;
  }
  const running = await transitionTask(core.db, taskId, ["queued", "running"], {
    status: "running",
    startedAt: task.startedAt ?? now,
    attempts: task.attempts + (task.status === "queued" ? 1 : 0),
    progress: { percent: 10, stage: "submitted", message: `sent to ${task.resolvedModel}` },
  });
  if (!running) return;
  try {
    const media = await ensureMediaResolved(core, running);
    const input = inputForVendor(running, media, core.signer, core.clock());
    const outcome = await adapter.submit({ taskId, capability: task.capability, model: task.resolvedModel, input }, signal);
    await applyOutcome(core, running, outcome, signal);
  } catch (error) {
    if (error instanceof ProviderFailure) await applyFailure(core, running, error, "execute_task");
    else if (error instanceof ServiceError) await applyFailure(core, running, taskFailureOf(error), "execute_task");
    else throw error;
  }
}
