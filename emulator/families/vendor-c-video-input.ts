import { z } from "zod";
import type { MaterialUrls } from "../media/video-materials.js";
import { capabilityOf } from "../video-input-limits.js";

// The `input` of a vendorC video synthesis as Model Studio's Wan 2.7 references define it
// (docs/providers/vendorC.md): the prompt and one `media` list whose items say their use by `type`; a reference
// carries its voice as `reference_voice` and its part as `reference_description`. Read here into the emulator's
// neutral materials.

const mediaItemSchema = z
  .object({
    type: z.enum(["first_frame", "last_frame", "first_clip", "video", "driving_audio", "reference_image", "reference_video", "reference_audio"]),
    url: z.string().min(1),
    reference_voice: z.string().min(1).optional(),
    reference_description: z.string().min(1).optional(),
  })
  .strict();

export const synthesisInputSchema = z
  .object({
    prompt: z.string().trim().min(1).optional(),
    negative_prompt: z.string().min(1).optional(),
    media: z.array(mediaItemSchema).min(1).optional(),
  })
  .strict();

export const reworkParameterFields = {
  audio_setting: z.enum(["auto", "origin"]).default("auto"),
  // Not in the reference, which continues a first_clip at its end: the service's way to ask for the start.
  extend_direction: z.literal("before").optional(),
};

type SynthesisInput = z.infer<typeof synthesisInputSchema>;

interface ReworkParameters {
  audio_setting: "auto" | "origin";
  extend_direction?: "before" | undefined;
}

const SINGLE = { first_frame: "firstFrame", last_frame: "lastFrame", driving_audio: "drivingAudio" } as const;

export function readSynthesisInput(input: SynthesisInput, parameters: ReworkParameters): MaterialUrls | { problem: string } {
  const urls: MaterialUrls = { references: [] };
  for (const item of input.media ?? []) {
    if (item.reference_voice !== undefined && !item.type.startsWith("reference_")) {
      return { problem: `media of type ${item.type} cannot carry a reference_voice` };
    }
    switch (item.type) {
      case "first_frame":
      case "last_frame":
      case "driving_audio": {
        const field = SINGLE[item.type];
        if (urls[field] !== undefined) return { problem: `media may hold one ${item.type}` };
        urls[field] = item.url;
        break;
      }
      case "video":
      case "first_clip":
        if (urls.source !== undefined) return { problem: "media may hold one video or first_clip" };
        urls.source = {
          url: item.url,
          rework:
            item.type === "video"
              ? { operation: "edit", audioSetting: parameters.audio_setting }
              : { operation: "extend", direction: parameters.extend_direction ?? "after" },
        };
        break;
      default:
        urls.references.push({
          kind: item.type.replace("reference_", "") as "image" | "video" | "audio",
          url: item.url,
          ...(item.reference_voice ? { voiceUrl: item.reference_voice } : {}),
        });
    }
  }
  if (urls.source?.rework.operation === "extend" && urls.firstFrame !== undefined) return { problem: "first_clip cannot be combined with first_frame" };
  if (input.prompt === undefined && capabilityOf(urls) === "text_to_video") return { problem: "input.prompt is required without media" };
  return urls;
}
