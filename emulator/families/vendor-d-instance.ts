import { z } from "zod";
import type { MaterialUrls } from "../media/video-materials.js";

// The instance of a Veo prediction in the Gemini API's form (docs/providers/vendorD.md): the prompt, pictures
// inline as `{bytesBase64Encoded, mimeType}` (`image` opens the clip, `referenceImages` appear in it) and the
// video of an edit as `{uri}`. Read here into the emulator's neutral materials; an inline picture is handed on
// as a data: URL, which the materials' download reads like any other.

const imageSchema = z
  .object({ bytesBase64Encoded: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/), mimeType: z.enum(["image/png", "image/jpeg", "image/webp"]) })
  .strict();

export const instanceSchema = z
  .object({
    prompt: z.string().trim().min(1).optional(),
    image: imageSchema.optional(),
    referenceImages: z
      .array(z.object({ image: imageSchema, referenceType: z.enum(["asset", "style"]) }).strict())
      .min(1)
      .optional(),
    video: z.object({ uri: z.string().min(1) }).strict().optional(),
  })
  .strict();

type InlineImage = z.infer<typeof imageSchema>;

const dataUrl = (image: InlineImage) => `data:${image.mimeType};base64,${image.bytesBase64Encoded}`;

export function readInstance(instance: z.infer<typeof instanceSchema>): MaterialUrls | { problem: string } {
  const given = [instance.image, instance.referenceImages, instance.video].filter((field) => field !== undefined);
  if (given.length > 1) return { problem: "an instance takes one of image, referenceImages and video" };
  if (instance.prompt === undefined && given.length === 0) return { problem: "prompt is required without an image, referenceImages or video" };
  if (instance.referenceImages?.some((r) => r.referenceType !== "asset")) return { problem: "Veo 3.1 takes asset reference images only" };
  const urls: MaterialUrls = { references: (instance.referenceImages ?? []).map((r) => ({ kind: "image" as const, url: dataUrl(r.image) })) };
  if (instance.image) urls.firstFrame = dataUrl(instance.image);
  // The vendor remakes the soundtrack of the video it is given.
  if (instance.video) urls.source = { url: instance.video.uri, rework: { operation: "edit", audioSetting: "auto" } };
  return urls;
}

// A refusal names an inline picture by what it is, not by its bytes.
export function withoutInlineBytes(reason: string): string {
  return reason.replace(/data:image\/[a-z]+;base64,[A-Za-z0-9+/=]+/g, "the inline picture");
}
