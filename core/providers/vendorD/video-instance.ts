import { storedInputBase64 } from "../stored-bytes.js";
import { ProviderFailure } from "../types.js";
import type { ResolvedMediaInput } from "../vendor-input.js";
import type { VideoJob } from "../video-job.js";

// The instance of a Veo prediction in the Gemini API's form (docs/providers/vendorD.md): the prompt, and each
// picture inline as `{bytesBase64Encoded, mimeType}` in the field that says how it is used (the Gemini API takes
// no image URLs). The video of an edit goes as `{uri}`, the one form the reference gives that field.

const IMAGE_TYPES: Record<string, string> = { png: "image/png", jpeg: "image/jpeg", jpg: "image/jpeg", webp: "image/webp" };

interface InlineImage {
  bytesBase64Encoded: string;
  mimeType: string;
}

async function inlineImage(input: ResolvedMediaInput, signal: AbortSignal): Promise<InlineImage> {
  const mimeType = IMAGE_TYPES[input.format];
  if (mimeType === undefined) throw new ProviderFailure("model_request_failed", `vendorD takes PNG, JPEG or WebP pictures, not ${input.format}`, false);
  return { bytesBase64Encoded: await storedInputBase64(input.url, signal), mimeType };
}

export async function predictionInstance(job: VideoJob, signal: AbortSignal): Promise<Record<string, unknown>> {
  const references = await Promise.all(job.references.map(async (r) => ({ image: await inlineImage(r.media, signal), referenceType: "asset" })));
  return {
    ...(job.prompt !== undefined ? { prompt: job.prompt } : {}),
    ...(job.firstFrame ? { image: await inlineImage(job.firstFrame, signal) } : {}),
    ...(references.length > 0 ? { referenceImages: references } : {}),
    ...(job.source ? { video: { uri: job.source.url } } : {}),
  };
}
