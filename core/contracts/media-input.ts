import { z } from "zod";

// SPEC.md "Media input": {type: "url", url} with an HTTPS URL, {type: "artifact", artifact_id}, or a data URI
// where the field accepts one (given either as the bare string or as the `url` of a url-type input).
const DATA_URI = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[^;,]+)*(;base64)?,/i;

// What a caller holding a local file (a path, a file: URL) is told to do instead.
const LOCAL_MEDIA_HINT = 'for a local file, upload it with POST /v1/assets (MCP tool svc.assets.upload) and pass {"type": "artifact", "artifact_id": "art_…"}';

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

export const REFERENCE_KINDS = ["image", "video", "audio"] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

// The tag that makes a schema field a media input, and of which kind: "declared" takes the kind the enclosing
// object names in its `kind` field (a reference). core/media/slots.ts finds the media of a body by these tags, so a
// media field exists in one place, its schema.
export const MEDIA_FIELDS = z.registry<{ mediaKind: ReferenceKind | "declared" }>();

// An HTTPS URL longer than this is refused at the field (browsers and CDNs stop near 8 KB); a data URI is bounded
// by the body's size and the media's limits instead.
export const MEDIA_URL_MAX = 8192;

function withinUrlBound(url: string): boolean {
  return DATA_URI.test(url) || url.length <= MEDIA_URL_MAX;
}

// `description` says what the field is for; the nested properties say how each form is given, once for all.
export function mediaInput(options: { kind: ReferenceKind | "declared"; allowDataUri?: boolean; description?: string }) {
  const allowData = options.allowDataUri ?? true;
  const urlInput = z
    .object({
      type: z.literal("url").describe("url: the media is at url."),
      url: z
        .string()
        .min(1)
        .refine(withinUrlBound, { message: `must be at most ${MEDIA_URL_MAX} characters`, abort: true })
        .refine((u) => isWebOrData(u, allowData), `${allowData ? "must be an HTTPS URL or a data URI" : "must be an HTTPS URL"}; ${LOCAL_MEDIA_HINT}`)
        .describe(allowData ? "HTTPS URL, or a data URI." : "HTTPS URL."),
    })
    .strict();
  const artifactInput = z
    .object({
      type: z.literal("artifact").describe("artifact: one of your artifacts."),
      artifact_id: z
        .string()
        .min(1)
        .max(128)
        .describe("From svc.assets.upload or a task output."),
    })
    .strict();
  const objectInput = z.discriminatedUnion("type", [urlInput, artifactInput], {
    error: "must be {type: \"url\", url} or {type: \"artifact\", artifact_id}",
  });
  const input = allowData
    ? z.union([z.string().regex(DATA_URI, `must be a data URI or a media input object; ${LOCAL_MEDIA_HINT}`), objectInput], {
        error: `must be a media input: {type: "url", url}, {type: "artifact", artifact_id} or a data URI; ${LOCAL_MEDIA_HINT}`,
      })
    : objectInput;
  MEDIA_FIELDS.add(input, { mediaKind: options.kind });
  return options.description === undefined ? input : input.describe(options.description);
}

export type MediaInput = string | { type: "url"; url: string } | { type: "artifact"; artifact_id: string };

// SPEC.md "Reference (video and enhancement calls)".
export const referenceSchema = z
  .object({
    kind: z.enum(REFERENCE_KINDS).describe("Kind of the media."),
    media: mediaInput({ kind: "declared", description: "The reference media." }),
    role: z.string().min(1).max(64).optional().describe("Model-defined use, e.g. subject."),
    reference_voice: mediaInput({ kind: "audio", description: "Voice sample for this reference." }).optional(),
  })
  .strict();

export type Reference = z.infer<typeof referenceSchema>;
