import { z } from "zod";
import type { MaterialUrls } from "../media/video-materials.js";
import { capabilityOf } from "../video-input-limits.js";

// The `content` of a vendorB generation task as the vendor's reference defines it (docs/providers/vendorB.md):
// at most one text item, and media items by URL with one of the reference's roles. The text names media the
// way the vendor's prompt guide does ("image 1", "video 1", "audio 1", numbered per kind in content order),
// and lines of it say what a medium is for beyond its role: a reference's part, a reference's voice, the
// driving audio, the video to edit or extend. Those lines are read here; the rest of the text is the prompt.

const url = z.object({ url: z.string().min(1) }).strict();

export const contentItemSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string().trim().min(1) }).strict(),
  z.object({ type: z.literal("image_url"), image_url: url, role: z.enum(["first_frame", "last_frame", "reference_image"]) }).strict(),
  z.object({ type: z.literal("video_url"), video_url: url, role: z.literal("reference_video") }).strict(),
  z.object({ type: z.literal("audio_url"), audio_url: url, role: z.literal("reference_audio") }).strict(),
]);

export type ContentItem = z.infer<typeof contentItemSchema>;
type MediaItem = Exclude<ContentItem, { type: "text" }>;

// What the text's lines say about the media, each medium named "<kind> <n>".
interface Directions {
  voices: Map<string, string>;
  driving?: string;
  edit?: string;
  keepOriginalAudio?: string;
  extend?: { video: string; direction: "before" | "after" };
  prompt: string;
}

const VOICE = /^Audio (\d+) is the voice of (image|video|audio) (\d+)\.$/;
const DRIVING = /^Audio (\d+) is the driving audio\.$/;
const EDIT = /^Edit video (\d+)\.$/;
const KEEP_AUDIO = /^Keep the original audio of video (\d+)\.$/;
const EXTEND = /^Extend video (\d+) at its (start|end)\.$/;
// Read and left to the model: a reference's part and what to avoid shape the picture, not the materials.
const DESCRIPTIVE = [/^(Image|Video|Audio) \d+ is the .+\.$/, /^Avoid: .*\.$/];

function readDirections(text: string): Directions {
  const directions: Directions = { voices: new Map(), prompt: "" };
  const prompt: string[] = [];
  for (const line of text.split("\n")) {
    const voice = VOICE.exec(line);
    const driving = DRIVING.exec(line);
    const edit = EDIT.exec(line);
    const keep = KEEP_AUDIO.exec(line);
    const extend = EXTEND.exec(line);
    if (voice) directions.voices.set(`audio ${voice[1]}`, `${voice[2]} ${voice[3]}`);
    else if (driving) directions.driving = `audio ${driving[1]}`;
    else if (edit) directions.edit = `video ${edit[1]}`;
    else if (keep) directions.keepOriginalAudio = `video ${keep[1]}`;
    else if (extend) directions.extend = { video: `video ${extend[1]}`, direction: extend[2] === "start" ? "before" : "after" };
    else if (!DESCRIPTIVE.some((pattern) => pattern.test(line))) prompt.push(line);
  }
  directions.prompt = prompt.join("\n").trim();
  return directions;
}

function kindOf(item: MediaItem): "image" | "video" | "audio" {
  return item.type.replace("_url", "") as "image" | "video" | "audio";
}

function urlOf(item: MediaItem): string {
  if (item.type === "image_url") return item.image_url.url;
  if (item.type === "video_url") return item.video_url.url;
  return item.audio_url.url;
}

// The prompt and the materials the content names, or the reason the vendor refuses it.
export function readContent(content: readonly ContentItem[]): { prompt: string; urls: MaterialUrls } | { problem: string } {
  const texts = content.filter((item) => item.type === "text");
  if (texts.length > 1) return { problem: "content may hold one text item" };
  const directions = readDirections(texts[0]?.text ?? "");
  const source = directions.edit ?? directions.extend?.video;
  if (directions.edit !== undefined && directions.extend !== undefined) return { problem: "a task either edits or extends a video" };
  const urls: MaterialUrls = { references: [] };
  const referenceIndex = new Map<string, number>();
  const seen = { image: 0, video: 0, audio: 0 };
  const named = new Set<string>();
  for (const item of content) {
    if (item.type === "text") continue;
    const kind = kindOf(item);
    seen[kind] += 1;
    const name = `${kind} ${seen[kind]}`;
    named.add(name);
    const url = urlOf(item);
    if (item.role === "first_frame" || item.role === "last_frame") {
      const field = item.role === "first_frame" ? "firstFrame" : "lastFrame";
      if (urls[field] !== undefined) return { problem: `content may hold one ${item.role}` };
      urls[field] = url;
    } else if (name === source) {
      urls.source = {
        url,
        rework: directions.extend
          ? { operation: "extend", direction: directions.extend.direction }
          : { operation: "edit", audioSetting: directions.keepOriginalAudio === name ? "origin" : "auto" },
      };
    } else if (name === directions.driving) {
      urls.drivingAudio = url;
    } else if (directions.voices.has(name)) {
      const target = referenceIndex.get(directions.voices.get(name) ?? "");
      const reference = target === undefined ? undefined : urls.references[target];
      if (!reference || reference.voiceUrl !== undefined) return { problem: `${name} is the voice of a medium that is not a reference` };
      reference.voiceUrl = url;
    } else {
      referenceIndex.set(name, urls.references.length);
      urls.references.push({ kind, url });
    }
  }
  for (const name of [source, directions.driving, directions.keepOriginalAudio, ...directions.voices.keys()]) {
    if (name !== undefined && !named.has(name)) return { problem: `the text names ${name}, which the content does not hold` };
  }
  if (directions.prompt === "" && capabilityOf(urls) === "text_to_video") return { problem: "content needs a text item when it holds no image or video" };
  return { prompt: directions.prompt, urls };
}
