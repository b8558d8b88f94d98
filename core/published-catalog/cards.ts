import { z } from "zod";
import { CAPABILITIES, findCapability } from "../capabilities/table.js";
import type { Capability } from "../capabilities/types.js";
import type { ModelKind } from "../catalog/model-types.js";
import { ALL_MODELS, findModel, type AnyCatalogModel } from "../catalog/registry.js";
import { formatCredits } from "../credits/money.js";
import type { Price } from "../credits/pricing.js";
import { ServiceError } from "../errors/index.js";
import { readLifecycle, type LifecycleRuntime } from "../retirements/lifecycle.js";
import type { ModelLifecycle } from "../retirements/retirement.js";
import type { VendorFamily } from "../vendor-families.js";

// The read-only catalog: list and detail cards rendered from the same registry (core/catalog/) and table
// (core/capabilities/) that validation, selection and billing read, so a card never disagrees with a rejection or
// a charge.

// What the deployment says of a vendor family: whether it is configured (live), and whether its adapter can stop a
// job it runs (so that a running task on it can be canceled); and of each model, its retirement (if any) as it
// stands at the moment of the request.
type FamilyFact = (family: VendorFamily) => boolean;
export interface CatalogState {
  isLive: FamilyFact;
  cancelsRunning: FamilyFact;
  lifecycle: ModelLifecycle;
}

export async function catalogState(core: LifecycleRuntime & { isFamilyLive: FamilyFact; familyCancelsRunning: FamilyFact }): Promise<CatalogState> {
  return { isLive: core.isFamilyLive, cancelsRunning: core.familyCancelsRunning, lifecycle: await readLifecycle(core) };
}

const MODEL_SHAPE: Record<ModelKind, "generic" | "video" | "music" | "audio" | "understanding"> = {
  image: "generic",
  video: "video",
  music: "music",
  speech: "audio",
  voice_clone: "audio",
  understanding: "understanding",
  video_prompt_enhancement: "generic",
};

function capabilityShape(capability: Capability): string {
  const kinds = new Set(modelsOf(capability).map((m) => m.kind));
  if (kinds.has("video_prompt_enhancement")) return "video_prompt_enhancement";
  if (kinds.has("understanding")) return "understanding";
  if (kinds.has("video")) return "video";
  if (kinds.has("music")) return "music";
  if (kinds.has("speech") || kinds.has("voice_clone")) return "audio";
  return "generic";
}

export const ALL_MODEL_IDS: readonly string[] = ALL_MODELS.map((m) => m.id);

export function modelsOf(capability: Capability): AnyCatalogModel[] {
  return ALL_MODELS.filter((m) => m.capabilities.includes(capability.id));
}

function renderPrice(price: Price) {
  return {
    meter: price.meter,
    unit: price.unit,
    per: price.per.toString(),
    price_credits: formatCredits(price.microPerUnit),
    ...(price.when ? { when: price.when } : {}),
  };
}

// A retired model is not live (nothing can select it); a deprecated one is, until its retirement.
function modelListItem(model: AnyCatalogModel, state: Pick<CatalogState, "isLive" | "lifecycle">) {
  const { schedule, now } = state.lifecycle;
  const retirement = schedule.of(model.id);
  const lifecycle = schedule.phaseOf(model.id, now);
  return {
    id: model.id,
    object: "model" as const,
    created: model.created,
    owned_by: model.family,
    kind: model.kind,
    capabilities: model.capabilities,
    live: state.isLive(model.family) && lifecycle !== "retired",
    lifecycle,
    deprecated_at: retirement ? retirement.deprecatedAt.toISOString() : null,
    retires_at: retirement ? retirement.retiresAt.toISOString() : null,
    replacement: retirement?.replacement ?? null,
  };
}

// GET /v1/models and /v1/catalog/models: the live models, in OpenAI's list form.
export function modelList(state: Pick<CatalogState, "isLive" | "lifecycle">) {
  return { object: "list" as const, data: ALL_MODELS.map((m) => modelListItem(m, state)).filter((m) => m.live) };
}

export function modelDetail(id: string, state: CatalogState) {
  const model = findModel(id);
  if (!model) throw new ServiceError("not_found", `No model ${id} in the catalog.`, { details: { model: id } });
  return {
    ...modelListItem(model, state),
    shape: MODEL_SHAPE[model.kind],
    cancel_while_running: state.cancelsRunning(model.family),
    description: model.description,
    constraints: model.constraints,
    input_limits: model.input_limits,
    prices: model.prices.map(renderPrice),
  };
}

function capabilityListItem(capability: Capability) {
  return {
    id: capability.id,
    object: "capability" as const,
    method: "POST",
    path: capability.path,
    summary: capability.summary,
    tool_name: capability.tool.name,
    shape: capabilityShape(capability),
    billing_mode: capability.billingMode,
    models: capability.ignoresModel ? [] : ["auto", ...capability.modelIds],
  };
}

export function capabilityList() {
  return { object: "list" as const, data: CAPABILITIES.map(capabilityListItem) };
}

export function capabilityDetail(id: string, state: CatalogState) {
  const capability = findCapability(id);
  if (!capability) throw new ServiceError("not_found", `No capability ${id} in the catalog.`, { details: { capability: id } });
  return {
    ...capabilityListItem(capability),
    deadline_seconds: capability.deadlineSeconds,
    input_schema: z.toJSONSchema(capability.inputSchema, { io: "input", unrepresentable: "any" }),
    example: capability.example,
    model_cards: modelsOf(capability).map((m) => modelDetail(m.id, state)),
  };
}
