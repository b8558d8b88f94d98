import { z } from "zod";
import type { MaterialUrls } from "../media/video-materials.js";

// The instance of a vendorD prediction (docs/providers/vendorD.md): the prompt and each media input as a
// `{uri, mimeType}` the vendor downloads, in the field that says how it is used: `image` opens the clip,
// `referenceImages` appear in it, `video` is edited. Read here into the emulator's neutral materials.

const mediaSchema = z.object({ uri: z.string().min(1), mimeType: z.string().min(1) }).strict();

export const instanceSchema = z
  .object({
    prompt: z.string().trim().min(1).optional(),
    image: mediaSchema.optional(),
    referenceImages: z.array(z.object({ image: mediaSchema, referenceType: z.string().min(1) }).strict()).min(1).optional(),
    video: mediaSchema.optional(),
  })
  .strict();

export function readInstance(instance: z.infer<typeof instanceSchema>): MaterialUrls | { problem: string } {
  const given = [instance.image, instance.referenceImages, instance.video].filter((field) => field !== undefined);
  if (given.length > 1) return { problem: "an instance takes one of image, referenceImages and video" };
  if (instance.prompt === undefined && given.length === 0) return { problem: "prompt is required without an image, referenceImages or video" };
  const urls: MaterialUrls = { references: (instance.referenceImages ?? []).map((r) => ({ kind: "image" as const, url: r.image.uri })) };
  if (instance.image) urls.firstFrame = instance.image.uri;
  // The vendor's edits always remake the soundtrack.
  if (instance.video) urls.source = { url: instance.video.uri, rework: { operation: "edit", audioSetting: "auto" } };
  return urls;
}
