import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { enqueueJob, type JobName } from "../db/statements/add-job.js";
import { ERROR_CATALOGUE, type ServiceError } from "../errors/index.js";
import { MediaFetchFailure } from "../media/fetch-failure.js";
import { storeOutputs, type OutputStoreRuntime } from "../providers/output-storage.js";
import { ProviderFailure, type ProviderOutcome } from "../providers/types.js";
import { finishSucceeded, finishUnsuccessfully, type FinishRuntime } from "./finish.js";
import { measuredUsage, outputOf } from "./outputs.js";
import type { TaskRow } from "./repository.js";
import { transitionTask } from "../db/statements/transition-task.js";
import { SLOT_RELEASED } from "./tenant-slots.js";
import { taskLogFields } from "./task-events.js";

const MAX_TRANSIENT_ATTEMPTS = 6;

// The parts of the runtime a vendor's outcome is applied with: the database and clock of the next poll, the
// storing of outputs and what a task's ending uses.
export interface OutcomeRuntime extends FinishRuntime, OutputStoreRuntime {
  db: Db;
}

// The parts of the runtime a failure is applied with: the database, clock and backoff of the retry, and what a
// task's ending uses.
export interface FailureRuntime extends FinishRuntime {
  db: Db;
  config: Pick<Config, "providerRetryBaseMs">;
}

export const DEADLINE_PASSED = { code: "model_timeout", message: "the task passed its deadline before the model finished" };

// One poll job per task at a time: a newer one (e.g. after a cancel request) replaces the scheduled one.
export function pollJobKey(taskId: string): string {
  return `poll:${taskId}`;
}

// Exponential backoff from the configured base, unless the vendor said when to come back (429 Retry-After).
function backoffMs(baseMs: number, attempt: number, hint: number | undefined): number {
  return hint ?? Math.min(60_000, baseMs * 2 ** Math.max(0, attempt - 1));
}

// What the worker does with a vendor's answer, whether to a submission or to a poll: finish the task with its
// stored outputs, or schedule the next poll without holding a worker slot meanwhile.
export async function applyOutcome(core: OutcomeRuntime, task: TaskRow, outcome: ProviderOutcome, signal: AbortSignal): Promise<void> {
  if (outcome.status === "pending") {
    const runAt = new Date(core.clock().getTime() + outcome.pollAfterMs);
    await core.db.transaction(async (tx) => {
      // The execution (if this is its answer) is over: its slot goes back, and no execute job may start the task
      // again; its polls carry it from here.
      const updated = await transitionTask(tx, task.id, "advance", {
        providerRef: outcome.ref,
        progress: {
          percent: outcome.progress?.percent ?? 20,
          stage: "generating",
          message: outcome.progress?.message ?? `${task.resolvedModel} is working`,
        },
        ...SLOT_RELEASED,
        executionToken: null,
      });
      if (updated) await enqueueJob(tx, "poll_task", { task_id: task.id }, { runAt, jobKey: pollJobKey(task.id) });
    });
    return;
  }
  if (outcome.outputs.length === 0 && outcome.text === undefined && outcome.data === undefined) {
    throw new ProviderFailure("model_request_failed", "vendor reported completion without any output", false);
  }
  const stored = await storeOutputs(core, `${task.tenantId}/${task.id}`, outcome.outputs, signal);
  await finishSucceeded(core, task.id, {
    output: outputOf(task, stored, outcome),
    usage: measuredUsage(task, stored, outcome),
    artifacts: stored,
  });
}

export interface TaskFailure {
  code: string;
  message: string;
  transient: boolean;
  retryAfterMs?: number | undefined;
  param?: string | undefined;
  details?: Record<string, unknown> | undefined;
}

// A public-code error raised while working on a task (a media input that cannot be fetched or decoded):
// retryable codes are tried again like transient vendor failures, except a download that says no retry can help.
export function taskFailureOf(error: ServiceError): TaskFailure {
  return {
    code: error.code,
    message: error.message,
    transient: error instanceof MediaFetchFailure ? error.transient : ERROR_CATALOGUE[error.code].retryable,
    param: error.param,
    details: error.details,
  };
}

// A mapped failure: transient ones are tried again (the same job, later) while attempts and the deadline allow;
// anything else ends the task failed with a full refund, the vendor's wording kept in the message.
export async function applyFailure(core: FailureRuntime, task: TaskRow, error: TaskFailure, job: JobName): Promise<void> {
  if (error instanceof ProviderFailure && error.code === "unsupported_option") {
    core.metrics.catalogGaps.inc({ family: task.providerFamily, model: task.resolvedModel });
    core.log.warn({ ...taskLogFields(task), model: task.resolvedModel, vendor_message: error.message }, "catalog gap: the vendor refused parameters the catalog admitted");
  }
  const retryAt = new Date(core.clock().getTime() + backoffMs(core.config.providerRetryBaseMs, task.attempts, error.retryAfterMs));
  if (error.transient && task.attempts < MAX_TRANSIENT_ATTEMPTS && retryAt < task.deadlineAt) {
    await core.db.transaction(async (tx) => {
      // A retried execution waits without its slot, and only the retry's job may start the task again.
      const updated = await transitionTask(tx, task.id, "advance", {
        attempts: task.attempts + 1,
        progress: { percent: 5, stage: "retrying", message: `${error.code}: ${error.message}; retrying at ${retryAt.toISOString()}` },
        ...SLOT_RELEASED,
      });
      if (!updated) return;
      if (job === "poll_task") {
        await enqueueJob(tx, job, { task_id: task.id }, { runAt: retryAt, jobKey: pollJobKey(task.id) });
      } else {
        const retry = await enqueueJob(tx, job, { task_id: task.id }, { runAt: retryAt });
        await transitionTask(tx, task.id, "advance", { executionToken: retry });
      }
    });
    return;
  }
  await finishUnsuccessfully(core, task.id, "fail", {
    code: error.code,
    message: error.message,
    ...(error.param !== undefined ? { param: error.param } : {}),
    ...(error.details !== undefined ? { details: error.details } : {}),
  });
}
