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
export function videoMediaInput(description: string) {
  return mediaInput({ kind: "video", allowDataUri: false, description });
}

export const videoDuration = z.union([z.number().int().min(1), z.literal("auto")], {
  error: 'must be a whole number of seconds or "auto"',
});

// `model` is not among them: its values differ per endpoint, so each capability declares it
// (core/capabilities/model-field.ts).
export const videoOptionFields = {
  negative_prompt: textOfLength(1, 2_000)
    .optional()
    .describe("What to avoid (max 2000 chars)."),
  duration: videoDuration
    .optional()
    .describe("Seconds, or auto; omit for the model default."),
  aspect_ratio: z
    .string()
    .min(1)
    .max(16)
    .optional()
    .describe("Ratio such as 16:9; omit for the default."),
  resolution: z
    .string()
    .min(1)
    .max(16)
    .optional()
    .describe("Tier such as 720p; omit for the default."),
  seed: z
    .number()
    .int()
    .min(0)
    .max(MAX_VIDEO_SEED)
    .optional()
    .describe("Seed for repeatable output."),
  enhance_prompt: z
    .boolean()
    .nullable()
    .optional()
    .describe("Rewrite the prompt (true) or not; omit: as written."),
  watermark: z.boolean().optional().describe("Model watermark on or off."),
  generate_audio: z.boolean().optional().describe("Generate synchronized audio."),
  web_search: z.boolean().optional().describe("Let the model search the web."),
  return_last_frame: z.boolean().optional().describe("Also return the last frame as an image."),
  output_format: z
    .enum(VIDEO_OUTPUT_FORMATS)
    .default("mp4")
    .describe("mp4, or mov on models that offer it."),
};

export type VideoOptions = z.output<z.ZodObject<typeof videoOptionFields>>;
