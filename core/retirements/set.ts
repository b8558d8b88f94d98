import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { ServiceError } from "../errors/index.js";
import { forgetRetirementsInThisProcess } from "./cache.js";
import { retirementProblems } from "./configured.js";
import { readOperatorRetirements, writeOperatorRetirement, type RetirementChange } from "./records.js";
import { RetirementSchedule, type LifecyclePhase, type Retirement } from "./retirement.js";

export type RetirementRequest =
  | { model: string; clear: true }
  | { model: string; clear?: false; retiresAt: Date; deprecatedAt?: Date; replacement?: string };

export interface RetirementRuntime {
  db: Db;
  clock: Clock;
  config: { modelRetirements: readonly Retirement[] };
}

export interface RetirementStanding {
  model: string;
  lifecycle: LifecyclePhase;
  retirement: Retirement | null;
}

// `svc model retire`: the operator's word on one model, stored for every process (which hear of it at once,
// core/retirements/cache.ts) and overriding MODEL_RETIREMENTS for that model. Without a deprecation date the model is
// deprecated from now (or from its retirement, if that is earlier); `clear` leaves it with no retirement at all.
// Answers the model's standing as it is then.
export async function setModelRetirement(core: RetirementRuntime, request: RetirementRequest): Promise<RetirementStanding> {
  const now = core.clock();
  let change: RetirementChange;
  if (request.clear) {
    change = { model: request.model, cleared: true };
    const problems = retirementProblems(request.model, now, now, null);
    if (problems.length > 0) throw new ServiceError("invalid_request", problems.join("; "));
  } else {
    const deprecatedAt = request.deprecatedAt ?? new Date(Math.min(now.getTime(), request.retiresAt.getTime()));
    const replacement = request.replacement ?? null;
    const problems = retirementProblems(request.model, deprecatedAt, request.retiresAt, replacement);
    if (problems.length > 0) throw new ServiceError("invalid_request", problems.join("; "));
    change = { model: request.model, deprecatedAt, retiresAt: request.retiresAt, replacement };
  }
  await writeOperatorRetirement(core.db, change, now);
  forgetRetirementsInThisProcess();
  const schedule = new RetirementSchedule(core.config.modelRetirements, await readOperatorRetirements(core.db));
  return { model: request.model, lifecycle: schedule.phaseOf(request.model, now), retirement: schedule.of(request.model) ?? null };
}
