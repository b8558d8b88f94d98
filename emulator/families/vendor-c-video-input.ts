import { z } from "zod";
import type { MaterialUrls } from "../media/video-materials.js";
import { capabilityOf } from "../video-input-limits.js";

// The `input` of a vendorC video synthesis (docs/providers/vendorC.md): the prompt and each media input by URL
// in the field that names its use; `function` turns a synthesis into an edit or an extension of `video_url`.
// Read here into the emulator's neutral materials.

export const synthesisInputSchema = z
  .object({
    prompt: z.string().trim().min(1).optional(),
    negative_prompt: z.string().min(1).optional(),
    img_url: z.string().min(1).optional(),
    first_frame_url: z.string().min(1).optional(),
    last_frame_url: z.string().min(1).optional(),
    audio_url: z.string().min(1).optional(),
    references: z
      .array(
        z
          .object({
            type: z.enum(["image", "video", "audio"]),
            url: z.string().min(1),
            role: z.string().min(1).optional(),
            voice_url: z.string().min(1).optional(),
          })
          .strict(),
      )
      .min(1)
      .optional(),
    function: z.enum(["video_edit", "video_extension"]).optional(),
    video_url: z.string().min(1).optional(),
  })
  .strict();

export const reworkParameterFields = {
  audio_setting: z.enum(["auto", "origin"]).default("auto"),
  extend_direction: z.enum(["before", "after"]).optional(),
};

type SynthesisInput = z.infer<typeof synthesisInputSchema>;

interface ReworkParameters {
  audio_setting: "auto" | "origin";
  extend_direction?: "before" | "after" | undefined;
}

export function readSynthesisInput(input: SynthesisInput, parameters: ReworkParameters): MaterialUrls | { problem: string } {
  if (input.img_url !== undefined && (input.first_frame_url !== undefined || input.last_frame_url !== undefined)) {
    return { problem: "img_url cannot be combined with first_frame_url or last_frame_url" };
  }
  if ((input.function === undefined) !== (input.video_url === undefined)) return { problem: "video_url goes with a function" };
  if (input.function === "video_extension" && parameters.extend_direction === undefined) {
    return { problem: "video_extension needs parameters.extend_direction" };
  }
  const urls: MaterialUrls = {
    references: (input.references ?? []).map((r) => ({ kind: r.type, url: r.url, ...(r.voice_url ? { voiceUrl: r.voice_url } : {}) })),
  };
  const firstFrame = input.img_url ?? input.first_frame_url;
  if (firstFrame !== undefined) urls.firstFrame = firstFrame;
  if (input.last_frame_url !== undefined) urls.lastFrame = input.last_frame_url;
  if (input.audio_url !== undefined) urls.drivingAudio = input.audio_url;
  if (input.video_url !== undefined && input.function === "video_edit") {
    urls.source = { url: input.video_url, rework: { operation: "edit", audioSetting: parameters.audio_setting } };
  }
  if (input.video_url !== undefined && input.function === "video_extension" && parameters.extend_direction) {
    urls.source = { url: input.video_url, rework: { operation: "extend", direction: parameters.extend_direction } };
  }
  if (input.prompt === undefined && capabilityOf(urls) === "text_to_video") return { problem: "input.prompt is required without media" };
  return urls;
}
