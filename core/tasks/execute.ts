import type { ArtifactUrlSigner } from "../artifacts/signed-url.js";
import type { Config } from "../config.js";
import type { ReadSql } from "../db/client.js";
import type { ProviderRegistry } from "../providers/registry.js";
import { ProviderFailure } from "../providers/types.js";
import { ServiceError } from "../errors/index.js";
import { applyFailure, applyOutcome, DEADLINE_PASSED, taskFailureOf, type FailureRuntime, type OutcomeRuntime } from "./advance.js";
import { ensureMediaResolved, inputForVendor, type ResolvedInputsRuntime } from "./media-inputs.js";
import { finishUnsuccessfully } from "./finish.js";
import { readTask } from "./task-reads.js";
import { isTerminal } from "../db/task-state-machine.js";
import type { StartRequest } from "../db/statements/start-tasks.js";
import type { TaskStarts } from "./task-starts.js";
import { releaseSlot } from "./tenant-slots.js";

// The parts of the runtime an execution uses: the task's reading and start, the adapters, the resolution of its
// media inputs and the signer of their URLs, and what applying the vendor's answer uses (its metrics count
// deferrals too).
export interface ExecuteRuntime extends OutcomeRuntime, FailureRuntime, ResolvedInputsRuntime {
  reads: ReadSql;
  starts: Pick<TaskStarts, "start">;
  signer: ArtifactUrlSigner;
  providers: Pick<ProviderRegistry, "get">;
  config: Pick<Config, "providers" | "outboundAllowLoopbackHttp" | "providerRetryBaseMs" | "mediaFetchTimeoutMs" | "mediaFetchPace" | "mediaInputMaxBytes">;
}

// One run of the execute_task job `jobId`: start the fairest waiting task (core/db/statements/start-tasks.ts), or
// the one this job holds already, resolve its media and submit it to the vendor; with every waiting task held back
// by a running limit, the start parks the job for later. Safe to run again after a crash: the task names the job
// that started it, and only that job may start it again; a terminal task is left alone, and each finish is guarded
// so that a task ends exactly once. The work's ending (a poll scheduled, a retry, a finish) gives the worker back
// in its statement.
export async function executeTask(core: ExecuteRuntime, job: StartRequest, signal: AbortSignal): Promise<void> {
  const started = await core.starts.start(job);
  if (started?.kind === "parked") {
    core.metrics.slotDeferrals.inc({ job: "execute_task" });
    return;
  }
  // Nothing started: the task this job was enqueued for may be one no start will take (its deadline passed, or no
  // adapter here runs its family), judged after the start, whose group took its time then.
  let running = started?.row ?? (await refuseToStart(core, job.taskId, core.clock()));
  if (!running) return;
  const taskId = running.id;
  try {
    // The task as it runs on: `auto` may choose its model again once its inputs are downloaded, and the adapter is
    // the new model's family's.
    const resolved = await ensureMediaResolved(core, running);
    if (!resolved) return;
    running = resolved.task;
    const adapter = core.providers.get(running.providerFamily);
    if (!adapter) throw new Error(`task ${taskId} started without an adapter for ${running.providerFamily}`);
    const input = inputForVendor(running, resolved.media, core.signer, core.clock());
    const outcome = await adapter.submit({ taskId, capability: running.capability, model: running.resolvedModel, input }, signal);
    await applyOutcome(core, running, outcome, signal);
  } catch (error) {
    if (error instanceof ProviderFailure) await applyFailure(core, running, error, "execute_task");
    else if (error instanceof ServiceError) await applyFailure(core, running, taskFailureOf(error), "execute_task");
    else {
      // graphile-worker runs this job again after its backoff, taking a slot then; the tenant's slot is not held
      // meanwhile. When the database is what failed, the release fails too and the slot's lease runs out instead.
      await releaseSlot(core.db, taskId).catch(() => undefined);
      throw error;
    }
  }
}

// Why a task did not start: it ended meanwhile (nothing to do), its deadline passed, or no adapter runs its family.
async function refuseToStart(core: ExecuteRuntime, taskId: string, now: Date): Promise<null> {
  const task = await readTask(core.reads, taskId);
  if (!task || isTerminal(task.status)) return null;
  if (task.deadlineAt <= now) {
    await finishUnsuccessfully(core, taskId, "fail", DEADLINE_PASSED);
  } else if (!core.providers.get(task.providerFamily)) {
    await finishUnsuccessfully(core, taskId, "fail", {
      code: "model_unavailable",
      message: `model ${task.resolvedModel} is not available: no adapter for its vendor family ${task.providerFamily}`,
    });
  }
  return null;
}
