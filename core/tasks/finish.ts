import { sql } from "drizzle-orm";
import type { Clock } from "../clock.js";
import type { GroupCommit } from "../db/group-commit.js";
import { tasks } from "../db/schema/index.js";
import { insertArtifacts, type NewArtifact } from "../db/statements/insert-artifacts.js";
import { recordFinish, type TaskEventRecorder } from "./task-events.js";
import { findCapability } from "../capabilities/table.js";
import type { StoredError, StoredUsage } from "./envelope.js";
import type { TaskEnding } from "./finish-batch.js";
import type { TaskRow } from "./repository.js";
import { transitionTask } from "../db/statements/transition-task.js";
import { TASK_TRANSITIONS } from "../db/task-state-machine.js";
import type { TaskChanges } from "../db/task-rows.js";
import { SLOT_RELEASED } from "./tenant-slots.js";
import type { LifecycleRuntime } from "../retirements/lifecycle.js";
import { retiredMeanwhileChanges } from "../retirements/retired-meanwhile.js";

// The parts of the runtime a task's ending uses: the group commits of endings, the clock, and what the finish is
// counted and logged with.
export interface FinishRuntime extends TaskEventRecorder, LifecycleRuntime {
  clock: Clock;
  finishes: GroupCommit<TaskEnding, TaskRow | null>;
}

function zeroUsage(): StoredUsage {
  return { counters: {}, lines: [], total_micro: "0" };
}

// Each terminal transition is one transaction (shared with the endings that happen meanwhile, see
// core/tasks/finish-batch.ts): state, output or error, the credit settlement, the capability's finish hook and
// the finish participants (the callback's first delivery attempt) commit together, and the task's worker slot
// (core/tasks/tenant-slots.ts) goes back. The status guard and the ledger's unique settlement index each make a second finish a
// no-op.

export async function finishSucceeded(
  core: FinishRuntime,
  taskId: string,
  result: { output: Record<string, unknown>; usage: StoredUsage; artifacts: NewArtifact[] },
): Promise<TaskRow | null> {
  const retired = await retiredMeanwhileChanges(core);
  const finished = await core.finishes.submit(async (tx, settlements) => {
    const now = core.clock();
    const captured = BigInt(result.usage.total_micro);
    const row = await transitionTask(tx, taskId, "succeed", {
      ...SLOT_RELEASED,
      ...retired,
      output: result.output,
      usage: result.usage,
      completedAt: now,
      progress: { percent: 100, stage: "succeeded", message: "done" },
      chargedMicro: sql`case when ${tasks.billingMode} = 'prepaid' then ${tasks.heldMicro} else least(${tasks.heldMicro}, ${captured}) end`,
      refundedMicro: sql`case when ${tasks.billingMode} = 'prepaid' then greatest(${tasks.heldMicro} - ${captured}, 0) else 0 end`,
    });
    if (!row) return null;
    if (result.artifacts.length > 0) {
      await insertArtifacts(tx, row.tenantId, taskId, result.artifacts, now);
    }
    await settlements.settle(tx, row.tenantId, taskId, row.heldMicro, row.chargedMicro - row.refundedMicro);
    await findCapability(row.capability)?.lifecycle?.finished?.(tx, row, now);
    return row;
  });
  if (finished) recordFinish(core, finished);
  return finished;
}

export async function finishUnsuccessfully(
  core: FinishRuntime,
  taskId: string,
  ending: "fail" | "cancel" | "cancelQueued",
  error: StoredError | null,
  changes: TaskChanges = {},
): Promise<TaskRow | null> {
  const retired = await retiredMeanwhileChanges(core);
  const finished = await core.finishes.submit(async (tx, settlements) => {
    const now = core.clock();
    const status = TASK_TRANSITIONS[ending].to;
    const row = await transitionTask(tx, taskId, ending, {
      ...SLOT_RELEASED,
      ...retired,
      ...changes,
      error,
      usage: zeroUsage(),
      completedAt: now,
      progress: { percent: 100, stage: status, message: error?.message ?? status },
      // Prepaid work was charged at admission and is refunded in full; postpaid work was never charged.
      refundedMicro: sql`${tasks.chargedMicro}`,
    });
    if (!row) return null;
    await settlements.settle(tx, row.tenantId, taskId, row.heldMicro, 0n);
    await findCapability(row.capability)?.lifecycle?.finished?.(tx, row, now);
    return row;
  });
  if (finished) recordFinish(core, finished);
  return finished;
}
