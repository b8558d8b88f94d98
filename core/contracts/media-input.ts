import { z } from "zod";

// SPEC.md "Media input": {type: "url", url} with an HTTPS URL, {type: "artifact", artifact_id}, or a data URI
// where the field accepts one (given either as the bare string or as the `url` of a url-type input).
const DATA_URI = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[^;,]+)*(;base64)?,/i;

// Only the shape is checked here; whether the URL may be fetched (HTTPS, no private address) is decided at
// admission by the outbound policy (core/media/admission.ts), which the development switch relaxes.
function isWebOrData(url: string, allowData: boolean): boolean {
  if (allowData && DATA_URI.test(url)) return true;
  try {
    const protocol = new URL(url).protocol;
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

export function mediaInput(options: { allowDataUri?: boolean } = {}) {
  const allowData = options.allowDataUri ?? true;
  const urlInput = z
    .object({
      type: z.literal("url"),
      url: z
        .string()
        .min(1)
        .refine((u) => isWebOrData(u, allowData), allowData ? "must be an HTTPS URL or a data URI" : "must be an HTTPS URL"),
    })
    .strict();
  const artifactInput = z.object({ type: z.literal("artifact"), artifact_id: z.string().min(1).max(128) }).strict();
  const objectInput = z.discriminatedUnion("type", [urlInput, artifactInput], {
    error: "must be {type: \"url\", url} or {type: \"artifact\", artifact_id}",
  });
  if (!allowData) return objectInput;
  return z.union([z.string().regex(DATA_URI, "must be a data URI or a media input object"), objectInput], {
    error: "must be a media input: {type: \"url\", url}, {type: \"artifact\", artifact_id} or a data URI",
  });
}

export type MediaInput = string | { type: "url"; url: string } | { type: "artifact"; artifact_id: string };

export const REFERENCE_KINDS = ["image", "video", "audio"] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

// SPEC.md "Reference (video and enhancement calls)".
export const referenceSchema = z
  .object({
    kind: z.enum(REFERENCE_KINDS),
    media: mediaInput(),
    role: z.string().min(1).max(64).optional(),
    reference_voice: mediaInput().optional(),
  })
  .strict();

export type Reference = z.infer<typeof referenceSchema>;
