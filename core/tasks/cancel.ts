import type { Db, ReadSql } from "../db/client.js";
import { ServiceError } from "../errors/index.js";
import type { ProviderRegistry } from "../providers/registry.js";
import { toEnvelope, type TaskEnvelope } from "./envelope.js";
import { enqueueJob } from "../db/statements/add-job.js";
import { pollJobKey } from "./advance.js";
import { finishUnsuccessfully, type FinishRuntime } from "./finish.js";
import { readTaskForTenant } from "./task-reads.js";
import { transitionTask } from "../db/statements/transition-task.js";
import { isTerminal } from "../db/task-state-machine.js";
import { envelopeContext, type EnvelopeRuntime } from "./read.js";

// The parts of the runtime a cancel uses: the task's reading and envelope, its ending, and the adapters that say
// whether its vendor job can be stopped.
export interface CancelRuntime extends EnvelopeRuntime, FinishRuntime {
  db: Db;
  reads: ReadSql;
  providers: Pick<ProviderRegistry, "get">;
}

export interface CancelResult {
  task: TaskEnvelope;
  // "final": the task was already terminal, or stopped now; "requested": the worker will stop it at the vendor.
  outcome: "final" | "requested";
}

// SPEC.md's three outcomes: terminal → its final state; accepted → cancel_requested_at set; cannot be stopped →
// 409 conflict with details.action. A queued task never reached a vendor, so it is canceled on the spot.
export async function cancelTask(core: CancelRuntime, tenantId: string, taskId: string, reason: string | undefined): Promise<CancelResult> {
  for (let round = 0; round < 3; round++) {
    const row = await readTaskForTenant(core.reads, tenantId, taskId);
    if (!row) throw new ServiceError("task_not_found", `No task ${taskId}.`, { details: { task_id: taskId } });
    if (isTerminal(row.status)) return { task: toEnvelope(row, envelopeContext(core)), outcome: "final" };
    const now = core.clock();
    if (row.status === "queued") {
      const finished = await finishUnsuccessfully(core, taskId, "cancelQueued", null, { cancelRequestedAt: now, cancelReason: reason ?? null });
      if (finished) return { task: toEnvelope(finished, envelopeContext(core)), outcome: "final" };
      continue;
    }
    const adapter = core.providers.get(row.providerFamily);
    if (!adapter?.supportsCancel) {
      throw new ServiceError(
        "conflict",
        `Task ${taskId} is already running on ${row.resolvedModel}, which cannot be stopped; keep polling it and do not resubmit.`,
        {
          details: {
            action: "keep_polling",
            task_id: taskId,
            status: row.status,
            recovery: { action: "keep_polling", requires_input_change: false },
          },
        },
      );
    }
    // The poll job that stops the vendor work is brought forward to now.
    const marked = await core.db.transaction(async (tx) => {
      const updated = await transitionTask(tx, taskId, "advance", {
        cancelRequestedAt: row.cancelRequestedAt ?? now,
        cancelReason: row.cancelReason ?? reason ?? null,
      });
      if (updated) await enqueueJob(tx, "poll_task", { task_id: taskId }, { jobKey: pollJobKey(taskId) });
      return updated;
    });
    if (marked) return { task: toEnvelope(marked, envelopeContext(core)), outcome: "requested" };
  }
  throw new ServiceError("conflict", `Task ${taskId} changed state repeatedly during cancel; read it and try again.`, {
    details: { action: "keep_polling", task_id: taskId },
  });
}
