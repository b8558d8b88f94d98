import { ServiceError, type ErrorCode } from "../errors/index.js";
import type { InputLimits } from "../catalog/input-limits.js";
import type { CandidateFailure } from "./candidate-failure.js";
import { inputLimitFailures, type KnownInput } from "./input-limits.js";
import { modelListHint } from "./model-list-hint.js";
import type { ModelLifecycle, Retirement } from "../retirements/retirement.js";

export interface SelectableModel {
  id: string;
  input_limits?: InputLimits;
}

// What selection knows of a request beyond its controls: the body (for text lengths) and the media inputs whose
// facts admission has in hand (data URIs, artifacts); URLs are checked by the worker once downloaded.
export interface KnownRequestInputs {
  body: Readonly<Record<string, unknown>>;
  media: readonly KnownInput[];
}

export type { CandidateFailure };

// One explicit control of a request, as a question asked of each candidate model. `check` returns null when the
// model honours it.
export interface Requirement<M extends SelectableModel> {
  param: string;
  check(model: M): Omit<CandidateFailure, "model" | "param"> | null;
}

// Candidate failures that SPEC.md gives a public code of their own when the model was named concretely.
const OWN_PUBLIC_CODES = new Set(["voice_model_incompatible", "unsupported_input_modality", "context_length_exceeded", "media_too_large"]);

export interface Selection<M extends SelectableModel> {
  requested: string;
  model: M;
  reason: string | null;
  // The chosen model's retirement when it is deprecated: the task is served, with a warning.
  deprecation: Retirement | null;
}

export interface SelectionInput<M extends SelectableModel> {
  capability: string;
  requested: string;
  candidates: readonly M[];
  isLive(model: M): boolean;
  // The retirements in force and now: a retired model is never selectable, a deprecated one is `auto`'s last resort.
  lifecycle: ModelLifecycle;
  requirements: readonly Requirement<M>[];
  known: KnownRequestInputs;
}

function failuresOf<M extends SelectableModel>(model: M, requirements: readonly Requirement<M>[], known: KnownRequestInputs): CandidateFailure[] {
  const failures: CandidateFailure[] = [];
  for (const requirement of requirements) {
    const failure = requirement.check(model);
    if (failure) failures.push({ model: model.id, param: requirement.param, ...failure });
  }
  for (const failure of inputLimitFailures(model.input_limits ?? {}, known.media, known.body)) failures.push({ model: model.id, ...failure });
  return failures;
}

// The error a concrete model's first failure answers: SPEC.md's own code where it has one, else unsupported_option.
export function concreteModelError(model: string, failures: readonly CandidateFailure[]): ServiceError {
  const first = failures[0] as CandidateFailure;
  const code: ErrorCode = OWN_PUBLIC_CODES.has(first.code) ? (first.code as ErrorCode) : "unsupported_option";
  return new ServiceError(code, `Model "${model}" cannot honour this request: ${first.message}`, {
    param: first.param,
    details: { candidate_failures: failures },
  });
}

function retiredError(capability: string, retirement: Retirement, selectable: readonly string[]): ServiceError {
  const instead = retirement.replacement ? ` Its replacement is ${retirement.replacement}.` : "";
  return new ServiceError(
    "unsupported_model",
    `Model "${retirement.model}" is not selectable for ${capability}: it retired at ${retirement.retiresAt.toISOString()}.${instead} ${modelListHint(capability)}.`,
    {
      param: "/model",
      details: {
        received: retirement.model,
        reason: "retired",
        retired_at: retirement.retiresAt.toISOString(),
        ...(retirement.replacement ? { replacement: retirement.replacement } : {}),
        supported_models: ["auto", ...selectable],
      },
    },
  );
}

// A concrete model is validated exactly and never substituted (a retired one is refused, a deprecated one served);
// `auto` takes the first live candidate that honours every requirement, in catalog order, passing over deprecated
// models while one that is not remains and never taking a retired one.
export function selectModel<M extends SelectableModel>(input: SelectionInput<M>): Selection<M> {
  const { capability, requested, candidates, requirements } = input;
  const { schedule, now } = input.lifecycle;
  const selectable = candidates.filter((m) => schedule.phaseOf(m.id, now) !== "retired").map((m) => m.id);
  if (requested !== "auto") {
    const model = candidates.find((m) => m.id === requested);
    if (!model) {
      throw new ServiceError("unsupported_model", `Model "${requested}" is not selectable for ${capability}: ${modelListHint(capability)}.`, {
        param: "/model",
        details: { received: requested, supported_models: ["auto", ...selectable] },
      });
    }
    const retirement = schedule.of(model.id);
    const phase = schedule.phaseOf(model.id, now);
    if (retirement && phase === "retired") throw retiredError(capability, retirement, selectable);
    const failures = failuresOf(model, requirements, input.known);
    if (failures.length > 0) throw concreteModelError(model.id, failures);
    if (!input.isLive(model)) {
      throw new ServiceError("model_unavailable", `Model "${model.id}" is not available right now.`, {
        param: "/model",
        details: { model: model.id },
      });
    }
    return { requested, model, reason: null, deprecation: phase === "deprecated" ? (retirement ?? null) : null };
  }

  const rejected: CandidateFailure[] = [];
  const passedOver: { model: M; retirement: Retirement }[] = [];
  const skippedText = () => (rejected.length > 0 ? `; skipped ${[...new Set(rejected.map((f) => f.model))].join(", ")}` : "");
  for (const model of candidates) {
    const retirement = schedule.of(model.id);
    const phase = schedule.phaseOf(model.id, now);
    if (retirement && phase === "retired") {
      rejected.push({ model: model.id, code: "model_retired", param: "/model", message: `model retired at ${retirement.retiresAt.toISOString()}` });
      continue;
    }
    const failures = failuresOf(model, requirements, input.known);
    if (failures.length === 0 && input.isLive(model)) {
      if (retirement && phase === "deprecated") {
        passedOver.push({ model, retirement });
        continue;
      }
      const deprecated = passedOver.length > 0 ? `; passed over deprecated ${passedOver.map((p) => p.model.id).join(", ")}` : "";
      return {
        requested,
        model,
        reason: `auto: first live model for ${capability} honouring every requested control${skippedText()}${deprecated}`,
        deprecation: null,
      };
    }
    if (failures.length === 0) {
      rejected.push({ model: model.id, code: "model_unavailable", param: "/model", message: "model is not live" });
    } else {
      rejected.push(...failures);
    }
  }
  const fallback = passedOver[0];
  if (fallback) {
    return {
      requested,
      model: fallback.model,
      reason:
        `auto: deprecated model for ${capability}, retiring at ${fallback.retirement.retiresAt.toISOString()}, chosen since no live ` +
        `compatible model that is not deprecated remains${skippedText()}`,
      deprecation: fallback.retirement,
    };
  }
  const message = `No live model for ${capability} can honour the whole request; details.candidate_failures says what each refused. ${modelListHint(capability)}.`;
  throw new ServiceError("no_eligible_model", message, {
    param: rejected[0]?.param,
    details: { candidate_failures: rejected },
  });
}
