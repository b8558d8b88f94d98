import { NO_PUBLISHED_LIMITS } from "./input-limits.js";
import { vendorAUnderstanding } from "./vendors/vendorA/input-limits.js";
import type { CatalogModelBase } from "./model-types.js";

export interface UnderstandingConstraints {
  input_modalities: readonly ("text" | "image" | "video")[];
  max_images: number;
  max_video_seconds: number;
  // The model's context window; a prompt (counted at 4 characters a token) past it is context_length_exceeded.
  context_window_tokens: number;
  detail_levels: readonly string[];
  response_formats: readonly string[];
  temperature: { min: number; max: number };
}

export type UnderstandingModel = CatalogModelBase<"understanding", UnderstandingConstraints>;

export interface EnhancementConstraints {
  max_prompt_characters: number;
  max_output_tokens: number;
}

export type EnhancementModel = CatalogModelBase<"video_prompt_enhancement", EnhancementConstraints>;

// vendorA-M3's longest video: its limit and the length its price hold covers.
const M3_MAX_VIDEO_SECONDS = 600;

export const UNDERSTANDING_MODELS: readonly UnderstandingModel[] = [
  {
    id: "vendorA-M3",
    family: "vendorA",
    kind: "understanding",
    capabilities: ["video_to_text", "image_to_text"],
    created: 1_764_547_200,
    description: "Multimodal model that answers questions about videos (sampled frames) and images.",
    constraints: {
      input_modalities: ["text", "image", "video"],
      max_images: 8,
      max_video_seconds: M3_MAX_VIDEO_SECONDS,
      context_window_tokens: 32_000,
      detail_levels: ["default", "low", "high"],
      response_formats: ["text", "json"],
      temperature: { min: 0, max: 2 },
    },
    input_limits: vendorAUnderstanding(M3_MAX_VIDEO_SECONDS),
    prices: [
      { meter: "image_input", unit: "image", microPerUnit: 2_000n, per: 1n },
      { meter: "video_input_seconds", unit: "second", microPerUnit: 1_000n, per: 1n },
    ],
  },
  {
    id: "vendorF-vision-2.0",
    family: "vendorF",
    kind: "understanding",
    capabilities: ["image_to_text"],
    created: 1_759_276_800,
    description: "Fast image captioning and visual question answering for up to four images; text answers only.",
    constraints: {
      input_modalities: ["text", "image"],
      max_images: 4,
      max_video_seconds: 0,
      context_window_tokens: 8_000,
      detail_levels: ["default", "low"],
      response_formats: ["text"],
      temperature: { min: 0, max: 1 },
    },
    input_limits: NO_PUBLISHED_LIMITS,
    prices: [{ meter: "image_input", unit: "image", microPerUnit: 800n, per: 1n }],
  },
];

// Prompt enhancement ignores the request's `model`; this is the model it runs on.
export const ENHANCEMENT_MODELS: readonly EnhancementModel[] = [
  {
    id: "vendorB-2-prompt-enhancer",
    family: "vendorB",
    kind: "video_prompt_enhancement",
    capabilities: ["video_prompt_enhancement"],
    created: 1_764_547_200,
    description: "Rewrites a short video idea into a detailed, shot-aware prompt for the vendorB-2 family.",
    constraints: { max_prompt_characters: 7_000, max_output_tokens: 2_000 },
    input_limits: NO_PUBLISHED_LIMITS,
    prices: [
      { meter: "input_tokens", unit: "token", microPerUnit: 1_000n, per: 1000n },
      { meter: "output_tokens", unit: "token", microPerUnit: 4_000n, per: 1000n },
    ],
  },
];
