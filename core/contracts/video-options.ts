import { z } from "zod";
import { mediaInput } from "./media-input.js";
import { textOfLength } from "./text.js";

// SPEC.md "Video option fields", shared by the video generation, edit and extend bodies. Which values a model
// honours is not decided here: every explicit control goes through model selection, so an unknown tier or
// ratio is refused by the model it was asked of (unsupported_option), never coerced.

export const VIDEO_OUTPUT_FORMATS = ["mp4", "mov"] as const;
export type VideoOutputFormat = (typeof VIDEO_OUTPUT_FORMATS)[number];

// SPEC.md's sample seed is 2147483647, the largest 32-bit signed integer; that is the upper bound here.
export const MAX_VIDEO_SEED = 2_147_483_647;

// "Video prompt: 1 to 20000 characters (instruction likewise)".
export const videoText = textOfLength(1, 20_000);

// Source videos are HTTPS URLs or artifacts: SPEC.md grants data URIs to image, sample and audio inputs only.
export const videoMediaInput = mediaInput({ allowDataUri: false });

export const videoDuration = z.union([z.number().int().min(1), z.literal("auto")], {
  error: 'must be a whole number of seconds or "auto"',
});

export const videoOptionFields = {
  model: z.string().min(1).default("auto"),
  negative_prompt: textOfLength(1, 2_000).optional(),
  duration: videoDuration.optional(),
  aspect_ratio: z.string().min(1).max(16).optional(),
  resolution: z.string().min(1).max(16).optional(),
  seed: z.number().int().min(0).max(MAX_VIDEO_SEED).optional(),
  enhance_prompt: z.boolean().nullable().optional(),
  watermark: z.boolean().optional(),
  generate_audio: z.boolean().optional(),
  web_search: z.boolean().optional(),
  return_last_frame: z.boolean().optional(),
  output_format: z.enum(VIDEO_OUTPUT_FORMATS).default("mp4"),
};

export type VideoOptions = z.output<z.ZodObject<typeof videoOptionFields>>;
