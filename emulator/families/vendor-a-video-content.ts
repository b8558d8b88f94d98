import { z } from "zod";
import { downloadedInputsProblem } from "../media/input-limits.js";
import { downloadedInputs, type MaterialUrls, type VideoMaterials } from "../media/video-materials.js";
import { vendorInputBounds } from "../vendors/input-limits.js";
import { VIDEO_LIMITS, VIDEO_MODEL } from "./vendor-a-models.js";

// What Video Generation V2 accepts of a task (docs/providers/vendorA.md, "Video"): its request, the content items
// and the combinations of them the vendor allows, the media it can use and the frame it renders, all by the
// vendor's own bounds (vendor-a-models.ts).

const url = z.object({ url: z.string().min(1) }).strict();

const contentItemSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }).strict(),
  z.object({ type: z.literal("image_url"), image_url: url, role: z.enum(["first_frame", "last_frame", "reference_image"]).optional() }).strict(),
  z.object({ type: z.literal("video_url"), video_url: url, role: z.literal("reference_video") }).strict(),
  z.object({ type: z.literal("audio_url"), audio_url: url, role: z.literal("reference_audio") }).strict(),
]);

const RESOLUTIONS = Object.keys(VIDEO_LIMITS.shortSide) as (keyof typeof VIDEO_LIMITS.shortSide)[];

export const videoRequestSchema = z
  .object({
    model: z.string().min(1),
    content: z.array(contentItemSchema).min(1),
    resolution: z.enum(RESOLUTIONS),
    duration: z.number().int().min(VIDEO_LIMITS.minSeconds).max(VIDEO_LIMITS.maxSeconds),
    ratio: z.enum(VIDEO_LIMITS.ratios).optional(),
    callback_url: z.url().optional(),
  })
  .strict();

export type VideoRequest = z.infer<typeof videoRequestSchema>;

export interface ReadContent {
  prompt: string;
  urls: MaterialUrls;
  // What the task is made from, for the ratio: text alone takes no `adaptive`.
  textOnly: boolean;
  imageCount: number;
}

// The content as the vendor reads it, or its reason for refusing it.
export function readContent(content: VideoRequest["content"]): ReadContent | string {
  const texts = content.flatMap((item) => (item.type === "text" ? [item.text] : []));
  const prompt = texts.join("\n").trim();
  if (prompt === "") return "content must include a non-empty text item";
  if ([...texts.join("")].length > VIDEO_LIMITS.maxTextCharacters) return `text content exceeds ${VIDEO_LIMITS.maxTextCharacters} characters`;
  const images = content.flatMap((item) => (item.type === "image_url" ? [{ url: item.image_url.url, role: item.role ?? "first_frame" }] : []));
  const firstFrames = images.filter((image) => image.role === "first_frame");
  const lastFrames = images.filter((image) => image.role === "last_frame");
  const references: MaterialUrls["references"] = [
    ...images.filter((image) => image.role === "reference_image").map((image) => ({ kind: "image" as const, url: image.url })),
    ...content.flatMap((item) => (item.type === "video_url" ? [{ kind: "video" as const, url: item.video_url.url }] : [])),
    ...content.flatMap((item) => (item.type === "audio_url" ? [{ kind: "audio" as const, url: item.audio_url.url }] : [])),
  ];
  if (firstFrames.length > 1 || lastFrames.length > 1) return "first_frame and last_frame may each appear at most once";
  const limits = VIDEO_LIMITS.references;
  for (const kind of ["image", "video", "audio"] as const) {
    if (references.filter((r) => r.kind === kind).length > limits[kind]) return `at most ${limits[kind]} reference ${kind}s`;
  }
  if (references.length > limits.total) return `at most ${limits.total} references in all`;
  const hasFrames = firstFrames.length + lastFrames.length > 0;
  if (hasFrames && references.length > 0) return "frame and reference inputs are mutually exclusive";
  if (references.some((r) => r.kind === "audio") && !references.some((r) => r.kind !== "audio")) {
    return "reference audio requires a reference image or video";
  }
  return {
    prompt,
    urls: { ...(firstFrames[0] ? { firstFrame: firstFrames[0].url } : {}), ...(lastFrames[0] ? { lastFrame: lastFrames[0].url } : {}), references },
    textOnly: !hasFrames && references.length === 0,
    imageCount: images.length,
  };
}

// What the vendor refuses about the downloaded media (its published bounds, emulator/vendors/input-limits.ts);
// null when it can use them.
export function materialsProblem(materials: VideoMaterials): string | null {
  return downloadedInputsProblem(vendorInputBounds("vendorA", VIDEO_MODEL), downloadedInputs(materials));
}

// The frame rendered for a tier and ratio; `adaptive` follows the first picture given (a frame, else a reference
// image or video). Undefined when there is none to follow.
export function frameOf(resolution: VideoRequest["resolution"], ratio: string, materials: VideoMaterials): { width: number; height: number } | undefined {
  const picture = [materials.firstFrame, materials.lastFrame, ...materials.references.map((r) => r.media)].find((m) => m?.width && m.height);
  const [across, down] = ratio === "adaptive" ? [picture?.width ?? 0, picture?.height ?? 0] : ratio.split(":").map(Number);
  if (!across || !down) return undefined;
  const short = VIDEO_LIMITS.shortSide[resolution];
  const long = 2 * Math.round((short * Math.max(across, down)) / Math.min(across, down) / 2);
  return across >= down ? { width: long, height: short } : { width: short, height: long };
}
