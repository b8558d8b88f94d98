import { z } from "zod";
import type { MaterialUrls, Rework } from "../media/video-materials.js";
import { capabilityOf } from "../video-input-limits.js";

// The `content` of a vendorB generation task (docs/providers/vendorB.md): at most one text item and media items
// by URL, each with the role it plays, read here into the emulator's neutral materials.

const url = z.object({ url: z.string().min(1) }).strict();
const reference = { reference_role: z.string().min(1).optional() };

export const contentItemSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string().trim().min(1) }).strict(),
  z.object({ type: z.literal("image_url"), image_url: url, role: z.enum(["first_frame", "last_frame", "reference_image"]), ...reference }).strict(),
  z.object({ type: z.literal("video_url"), video_url: url, role: z.enum(["reference_video", "source_video"]), ...reference }).strict(),
  z
    .object({
      type: z.literal("audio_url"),
      audio_url: url,
      role: z.enum(["reference_audio", "reference_voice", "driving_audio"]),
      reference_index: z.number().int().min(0).optional(),
      ...reference,
    })
    .strict(),
]);

export type ContentItem = z.infer<typeof contentItemSchema>;

export const taskKindFields = {
  task_type: z.enum(["generation", "video_edit", "video_extend"]).default("generation"),
  audio_setting: z.enum(["auto", "origin"]).default("auto"),
  extend_direction: z.enum(["before", "after"]).optional(),
};

interface TaskKind {
  task_type: "generation" | "video_edit" | "video_extend";
  audio_setting: "auto" | "origin";
  extend_direction?: "before" | "after" | undefined;
}

const SINGLE_ROLES = { first_frame: "firstFrame", last_frame: "lastFrame", driving_audio: "drivingAudio" } as const;

function urlOf(item: Exclude<ContentItem, { type: "text" }>): string {
  if (item.type === "image_url") return item.image_url.url;
  if (item.type === "video_url") return item.video_url.url;
  return item.audio_url.url;
}

// The prompt and the materials the content names, or the reason the vendor refuses it.
export function readContent(content: readonly ContentItem[], kind: TaskKind): { prompt: string; urls: MaterialUrls } | { problem: string } {
  const texts = content.filter((item) => item.type === "text");
  if (texts.length > 1) return { problem: "content may hold one text item" };
  const urls: MaterialUrls = { references: [] };
  let source: string | undefined;
  const voices: { index: number; url: string }[] = [];
  for (const item of content) {
    if (item.type === "text") continue;
    const url = urlOf(item);
    switch (item.role) {
      case "first_frame":
      case "last_frame":
      case "driving_audio": {
        const field = SINGLE_ROLES[item.role];
        if (urls[field] !== undefined) return { problem: `content may hold one ${item.role}` };
        urls[field] = url;
        break;
      }
      case "source_video":
        if (source !== undefined) return { problem: "content may hold one source_video" };
        source = url;
        break;
      case "reference_voice":
        voices.push({ index: item.reference_index ?? urls.references.length - 1, url });
        break;
      default:
        urls.references.push({ kind: item.role.replace("reference_", "") as "image" | "video" | "audio", url });
    }
  }
  for (const voice of voices) {
    const target = urls.references[voice.index];
    if (!target || target.voiceUrl !== undefined) return { problem: `reference_voice ${voice.index} has no reference of its own` };
    target.voiceUrl = voice.url;
  }
  const rework = reworkOf(kind);
  if ((rework === undefined) !== (source === undefined)) return { problem: `a source_video goes with task_type video_edit or video_extend` };
  if (rework === null) return { problem: "video_extend needs an extend_direction" };
  if (rework && source !== undefined) urls.source = { url: source, rework };
  if (texts.length === 0 && capabilityOf(urls) === "text_to_video") return { problem: "content needs a text item when it holds no image or video" };
  return { prompt: texts[0]?.text ?? "", urls };
}

function reworkOf(kind: TaskKind): Rework | null | undefined {
  if (kind.task_type === "video_edit") return { operation: "edit", audioSetting: kind.audio_setting };
  if (kind.task_type === "video_extend") return kind.extend_direction ? { operation: "extend", direction: kind.extend_direction } : null;
  return undefined;
}
