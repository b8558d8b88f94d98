// A model's retirement: from `deprecatedAt` it is discouraged (served, with a warning; `auto` passes over it while a
// live compatible model remains), from `retiresAt` it is refused. `replacement` is the model the operator points
// callers to, if any. `source` says where the dates were set: MODEL_RETIREMENTS at start, or `svc model retire`.
export interface Retirement {
  model: string;
  deprecatedAt: Date;
  retiresAt: Date;
  replacement: string | null;
  source: "configuration" | "operator";
}

export type LifecyclePhase = "active" | "deprecated" | "retired";

export function phaseAt(retirement: Retirement | undefined, now: Date): LifecyclePhase {
  if (!retirement) return "active";
  if (now.getTime() >= retirement.retiresAt.getTime()) return "retired";
  if (now.getTime() >= retirement.deprecatedAt.getTime()) return "deprecated";
  return "active";
}

// The operator's own word on one model, as stored: a retirement, or `cleared` (no retirement, whatever the
// configuration says).
export type OperatorRetirement = { model: string; cleared: true } | (Retirement & { cleared?: false });

// Every model's retirement in force: the operator's word where there is one, else the configuration's.
export class RetirementSchedule {
  private readonly byModel: ReadonlyMap<string, Retirement>;

  constructor(configured: readonly Retirement[], operator: readonly OperatorRetirement[]) {
    const byModel = new Map(configured.map((r) => [r.model, r]));
    for (const entry of operator) {
      if (entry.cleared) byModel.delete(entry.model);
      else byModel.set(entry.model, entry);
    }
    this.byModel = byModel;
  }

  of(model: string): Retirement | undefined {
    return this.byModel.get(model);
  }

  phaseOf(model: string, now: Date): LifecyclePhase {
    return phaseAt(this.byModel.get(model), now);
  }

  all(): Retirement[] {
    return [...this.byModel.values()];
  }
}

// The moment a schedule is read at: what selection and the catalog compare the dates with (the injected clock).
export interface ModelLifecycle {
  schedule: RetirementSchedule;
  now: Date;
}

export const NO_RETIREMENTS = new RetirementSchedule([], []);

// RFC 9745's Deprecation (a structured-field date: `@` and Unix seconds) and RFC 8594's Sunset (an HTTP-date).
export function deprecationHeaders(retirement: Retirement): { Deprecation: string; Sunset: string } {
  return {
    Deprecation: `@${Math.floor(retirement.deprecatedAt.getTime() / 1000)}`,
    Sunset: retirement.retiresAt.toUTCString(),
  };
}

// The warning a task admitted on a deprecated model carries (SPEC.md's envelope `warnings`).
export function deprecationWarning(retirement: Retirement): { code: string; message: string; field: string } {
  const instead = retirement.replacement ? ` Use ${retirement.replacement} instead.` : "";
  return {
    code: "model_deprecated",
    message:
      `Model ${retirement.model} is deprecated since ${retirement.deprecatedAt.toISOString()} and retires at ` +
      `${retirement.retiresAt.toISOString()}: requests naming it are refused from then on (unsupported_model); a task ` +
      `admitted before then runs or fails as the vendor answers.${instead}`,
    field: "/model",
  };
}
