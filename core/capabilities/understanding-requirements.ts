import { z } from "zod";
import type { UnderstandingModel } from "../catalog/understanding-models.js";
import { codePointLength } from "../contracts/text.js";
import type { Requirement } from "../selection/select.js";

// What an understanding request (images or a video) asks of a model, checked against its catalog constraints.

// The fields both understanding endpoints share besides their media.
export const understandingOptionFields = {
  detail: z
    .enum(["default", "low", "high"])
    .default("default")
    .describe("How closely to look; same price at every level."),
  response_format: z
    .string()
    .min(1)
    .max(32)
    .optional()
    .describe("Answer format such as text."),
  temperature: z
    .number()
    .optional()
    .describe("Sampling temperature, within the model's range."),
};

// understanding-models.ts counts a prompt at 4 characters a token against the context window.
const CHARACTERS_PER_TOKEN = 4;

export interface UnderstandingAsk {
  modality: "image" | "video";
  // Where the media sits in the body: `/images` or `/video`.
  mediaParam: string;
  prompt: string;
  imageCount?: number;
  detail: string;
  response_format?: string | undefined;
  temperature?: number | undefined;
}

export function understandingRequirements(ask: UnderstandingAsk): Requirement<UnderstandingModel>[] {
  const promptTokens = Math.ceil(codePointLength(ask.prompt) / CHARACTERS_PER_TOKEN);
  const requirements: Requirement<UnderstandingModel>[] = [
    {
      param: ask.mediaParam,
      check: (m) =>
        m.constraints.input_modalities.includes(ask.modality)
          ? null
          : { code: "unsupported_input_modality", message: `${ask.modality} is not an input this model reads`, received: ask.modality, supported: m.constraints.input_modalities },
    },
    {
      param: "/prompt",
      check: (m) =>
        promptTokens <= m.constraints.context_window_tokens
          ? null
          : {
              code: "context_length_exceeded",
              message: `the prompt (about ${promptTokens} tokens) exceeds the ${m.constraints.context_window_tokens}-token context window`,
              received: promptTokens,
              supported: m.constraints.context_window_tokens,
            },
    },
    {
      param: "/detail",
      check: (m) =>
        m.constraints.detail_levels.includes(ask.detail)
          ? null
          : { code: "unsupported_detail", message: `detail ${ask.detail} is not offered`, received: ask.detail, supported: m.constraints.detail_levels },
    },
  ];
  const imageCount = ask.imageCount;
  if (imageCount !== undefined) {
    requirements.push({
      param: ask.mediaParam,
      check: (m) =>
        imageCount <= m.constraints.max_images
          ? null
          : { code: "unsupported_image_count", message: `at most ${m.constraints.max_images} images`, received: imageCount, supported: m.constraints.max_images },
    });
  }
  const format = ask.response_format;
  if (format !== undefined) {
    requirements.push({
      param: "/response_format",
      check: (m) =>
        m.constraints.response_formats.includes(format)
          ? null
          : { code: "unsupported_response_format", message: `response_format ${format} is not offered`, received: format, supported: m.constraints.response_formats },
    });
  }
  const temperature = ask.temperature;
  if (temperature !== undefined) {
    requirements.push({
      param: "/temperature",
      check: (m) => {
        const range = m.constraints.temperature;
        return temperature >= range.min && temperature <= range.max
          ? null
          : { code: "unsupported_temperature", message: `temperature must be ${range.min} to ${range.max}`, received: temperature, supported: range };
      },
    });
  }
  return requirements;
}
