import { videoModelsFor, type VideoModel } from "../../catalog/video-models.js";
import { selectModel } from "../../selection/select.js";
import type { PrepareContext, Prepared } from "../types.js";
import { videoGenerationQuote } from "./pricing.js";
import type { VideoRequirement } from "./requirements.js";
import { preparedFrom } from "../prepared.js";

export interface GenerationRequest {
  capability: string;
  model: string;
  resolution: string | undefined;
  requirements: readonly VideoRequirement[];
  // Seconds the chosen model will be billed for (it may depend on the model's default duration).
  seconds(model: VideoModel): number;
}

// Shared by the six video generation, edit and extend endpoints: select among the endpoint's models with
// every explicit control as a requirement, then quote the chosen model's per-second price.
export async function prepareVideoGeneration(request: GenerationRequest, ctx: PrepareContext): Promise<Prepared> {
  const selection = selectModel({
    capability: request.capability,
    requested: request.model,
    candidates: videoModelsFor(request.capability),
    isLive: (m) => ctx.isFamilyLive(m.family),
    lifecycle: ctx.lifecycle,
    requirements: request.requirements,
    known: ctx.known,
  });
  return preparedFrom(selection, videoGenerationQuote(selection.model, request.seconds(selection.model), request.resolution));
}

// Video generation can queue at the vendor for a long time; past an hour the task fails with a full refund.
export const VIDEO_GENERATION_DEADLINE_SECONDS = 3_600;
