import { VIDEO_MODELS, type VideoModel } from "../catalog/video-models.js";
import { videoDimensions } from "../catalog/video-dimensions.js";
import type { VideoOutputFormat } from "../contracts/video-options.js";
import { ProviderFailure, type ProviderRequest } from "./types.js";

// A text-to-video request with every default filled in from the model's catalog entry, so that each family's
// adapter only translates it into its own wire vocabulary. Admission already checked every explicit control
// against the same constraints; what is left here is choosing the values of the omitted ones.
export interface TextToVideoJob {
  model: VideoModel;
  prompt: string;
  negativePrompt: string | undefined;
  durationSeconds: number;
  resolution: string;
  aspectRatio: string;
  width: number;
  height: number;
  seed: number | undefined;
  // An omitted or null enhance_prompt keeps the prompt as written (SPEC.md), so it is false unless asked.
  enhancePrompt: boolean;
  watermark: boolean;
  generateAudio: boolean;
  webSearch: boolean;
  returnLastFrame: boolean;
  outputFormat: VideoOutputFormat;
}

interface TextToVideoTaskInput {
  prompt: string;
  negative_prompt?: string;
  duration?: number | "auto";
  aspect_ratio?: string;
  resolution?: string;
  seed?: number;
  enhance_prompt?: boolean | null;
  watermark?: boolean;
  generate_audio?: boolean;
  web_search?: boolean;
  return_last_frame?: boolean;
  output_format?: VideoOutputFormat;
  audio?: unknown;
}

// An omitted boolean control is off where the model can turn it off: a model that always watermarks or always
// produces audio keeps doing so, every other model stays plain and silent unless asked.
function omittedBoolean(supported: readonly boolean[]): boolean {
  return !supported.includes(false);
}

export function textToVideoJob(request: ProviderRequest): TextToVideoJob {
  const model = VIDEO_MODELS.find((m) => m.id === request.model);
  if (request.capability !== "text_to_video" || !model) {
    throw new ProviderFailure("model_unavailable", `${request.model} cannot serve ${request.capability} here yet`, false);
  }
  const input = request.input as unknown as TextToVideoTaskInput;
  if (input.audio !== undefined) {
    throw new ProviderFailure(
      "model_unavailable",
      `${request.model} cannot take a driving audio input yet: media inputs are not passed to vendors in this release`,
      false,
    );
  }
  const c = model.constraints;
  const resolution = input.resolution ?? c.default_resolution;
  const aspectRatio = input.aspect_ratio ?? c.default_aspect_ratio ?? "16:9";
  return {
    model,
    prompt: input.prompt,
    negativePrompt: input.negative_prompt,
    durationSeconds: typeof input.duration === "number" ? input.duration : c.default_duration,
    resolution,
    aspectRatio,
    ...videoDimensions(resolution, aspectRatio),
    seed: input.seed,
    enhancePrompt: input.enhance_prompt ?? false,
    watermark: input.watermark ?? omittedBoolean(c.watermark),
    generateAudio: input.generate_audio ?? omittedBoolean(c.generate_audio),
    webSearch: input.web_search ?? false,
    returnLastFrame: input.return_last_frame ?? false,
    outputFormat: input.output_format ?? "mp4",
  };
}
