import { findCapability } from "../capabilities/table.js";
import type { Prepared } from "../capabilities/types.js";
import { formatCredits } from "../credits/money.js";
import { insufficientBalance } from "../credits/ledger.js";
import { spendLimitReached } from "../credits/spend-limits.js";
import type { Db } from "../db/client.js";
import { changeHold, holdSpendStates, lockAvailable } from "../db/statements/change-hold.js";
import { transitionTask } from "../db/statements/transition-task.js";
import { ServiceError } from "../errors/index.js";
import { taskLogFields } from "./task-events.js";
import type { Logger } from "../observability/logger.js";
import type { CandidateFailure } from "../selection/candidate-failure.js";
import type { KnownInput } from "../selection/input-limits.js";
import { storedQuote } from "./admitted-rows.js";
import { prepareKnowing, type SelectionRuntime } from "./prepare-known.js";
import type { TaskRow } from "./repository.js";

// `auto` chose a task's model at admission from what it knew of the inputs then; a URL's facts (a recording's
// length, a picture's size) arrive only with the worker's download, and may rule that model out. SPEC.md rule 6
// makes `auto` select a compatible model for the whole request, so the worker chooses again, before any vendor
// call, with admission's own selection and price (prepare-known.ts) now that every input is known: the first
// live model that takes the whole request, in catalog order, or no_eligible_model with every candidate's failure
// when none does. The new model, its family, the reason, the quote and the hold are recorded in one transaction;
// a dearer model's hold is raised there, judged against the available balance and the spend limits as admission
// judges a hold, or the task fails insufficient_balance (refunded in full by its ending) with nothing changed.

export interface ReselectionRuntime extends SelectionRuntime {
  log: Logger;
}

// The task as recorded with its new model, or null when it stopped running meanwhile (nothing was written then).
export async function chooseAgain(
  core: ReselectionRuntime,
  task: TaskRow,
  known: readonly KnownInput[],
  dropped: readonly CandidateFailure[],
): Promise<TaskRow | null> {
  const capability = findCapability(task.capability);
  if (!capability) throw new Error(`task ${task.id} has no capability ${task.capability} to choose a model with`);
  const why = `${task.resolvedModel}, which auto chose at admission, was dropped once the inputs were downloaded: ${dropped.map((f) => f.message).join("; ")}`;
  let prepared: Prepared;
  try {
    prepared = await prepareKnowing(core, capability, task.input as Record<string, unknown>, task.tenantId, known);
  } catch (error) {
    if (error instanceof ServiceError && error.code === "no_eligible_model") {
      throw new ServiceError("no_eligible_model", `${why}; chosen again: ${error.message}`, { param: error.param, details: error.details });
    }
    throw error;
  }
  const recorded = await recordModel(core.db, task, prepared, why);
  if (recorded instanceof ServiceError) throw recorded;
  if (recorded) {
    core.log.info(
      { ...taskLogFields(task), dropped_model: task.resolvedModel, model: recorded.resolvedModel, held_micro: recorded.heldMicro.toString() },
      "auto chose another model once the inputs were downloaded",
    );
  }
  return recorded;
}

// One transaction: the raise judged (under the account's lock), then the task's model fields and the hold.
function recordModel(db: Db, task: TaskRow, prepared: Prepared, why: string): Promise<TaskRow | ServiceError | null> {
  const from = task.heldMicro;
  const to = prepared.quote.totalMicro;
  return db.transaction(async (tx) => {
    if (to > from) {
      const reached = (await holdSpendStates(tx, task.id)).find((state) => state.spent + (to - from) > state.limit);
      if (reached) return raiseRefused(task, prepared, why, spendLimitReached(reached, to - from, task.createdAt));
      const available = (await lockAvailable(tx, task.tenantId)) ?? 0n;
      if (available < to - from) return raiseRefused(task, prepared, why, insufficientBalance(to - from, available));
    }
    const row = await transitionTask(tx, task.id, "advance", {
      resolvedModel: prepared.resolvedModel,
      providerFamily: prepared.family,
      modelSelectionReason: `${why}; chosen again: ${prepared.selectionReason ?? "auto"}`,
      quote: storedQuote(prepared),
      heldMicro: to,
      chargedMicro: task.billingMode === "prepaid" ? to : 0n,
    });
    if (!row || to === from) return row;
    const note = `${formatCredits(from)} held at admission for ${task.resolvedModel}; ${formatCredits(to)} for ${prepared.resolvedModel}, which auto chose once the inputs were downloaded`;
    await changeHold(tx, { tenantId: task.tenantId, taskId: task.id, from, to, note });
    return row;
  });
}

// insufficient_balance saying which model auto chose and why, and what it costs against the hold, then what
// refused the difference in admission's words (the balance, or a spend limit in the period the hold counts in: the
// task's admission's). The task's ending refunds the hold in full.
function raiseRefused(task: TaskRow, prepared: Prepared, why: string, refusal: ServiceError): ServiceError {
  const price = prepared.quote.totalMicro;
  const message =
    `auto chose ${prepared.resolvedModel} for this task once its inputs were downloaded (${why}); it costs ` +
    `${formatCredits(price)} credits where ${formatCredits(task.heldMicro)} were held. ${refusal.message} The hold is refunded in full.`;
  return new ServiceError("insufficient_balance", message, {
    details: {
      ...refusal.details,
      model: prepared.resolvedModel,
      dropped_model: task.resolvedModel,
      price_credits: formatCredits(price),
      held_credits: formatCredits(task.heldMicro),
    },
  });
}
