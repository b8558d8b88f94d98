import { IMAGE_MODELS, IMAGE_OUTPUT_METER, type ImageModel } from "../../catalog/image-models.js";
import type { ImageOptionInput } from "../../contracts/image-options.js";
import { findPrice, priceLine } from "../../credits/pricing.js";
import { selectModel, type Requirement } from "../../selection/select.js";
import type { PrepareContext, Prepared, Quote } from "../types.js";
import { preparedFrom } from "../prepared.js";

// What the three image creation endpoints share once their own fields are checked: the candidates of the
// capability in catalog order, selection, and a prepaid quote of count × the model's per-image price.

export function imageModelsFor(capabilityId: string): readonly ImageModel[] {
  return IMAGE_MODELS.filter((m) => m.capabilities.includes(capabilityId));
}

// The price may depend on the canvas tier (`when: {tier}`); a tier without its own entry uses the base price.
export function imageGenerationQuote(model: ImageModel, count: number, tier: string): Quote {
  const line = priceLine(findPrice(model.prices, IMAGE_OUTPUT_METER, { tier }), BigInt(count));
  return { lines: [line], totalMicro: line.amountMicro, counters: { image_count: count } };
}

export function prepareImageGeneration(
  capabilityId: string,
  input: ImageOptionInput,
  requirements: readonly Requirement<ImageModel>[],
  ctx: PrepareContext,
): Prepared {
  const selection = selectModel({
    capability: capabilityId,
    requested: input.model,
    candidates: imageModelsFor(capabilityId),
    isLive: (m) => ctx.isFamilyLive(m.family),
    lifecycle: ctx.lifecycle,
    requirements,
    known: ctx.known,
  });
  return preparedFrom(selection, imageGenerationQuote(selection.model, input.count, input.canvas.tier));
}
