import type { ResolvedMediaInput, VideoJob } from "../video-job.js";

// The instance of a vendorD prediction (docs/providers/vendorD.md): the prompt and each media input as a
// `{uri, mimeType}` the vendor downloads, in the field that says how it is used.

const MIME_TYPES: Record<string, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
};

function media(input: ResolvedMediaInput) {
  return { uri: input.url, mimeType: MIME_TYPES[input.format] ?? "application/octet-stream" };
}

export function predictionInstance(job: VideoJob): Record<string, unknown> {
  return {
    ...(job.prompt !== undefined ? { prompt: job.prompt } : {}),
    ...(job.firstFrame ? { image: media(job.firstFrame) } : {}),
    ...(job.references.length > 0
      ? { referenceImages: job.references.map((r) => ({ image: media(r.media), referenceType: r.role ?? "asset" })) }
      : {}),
    ...(job.source ? { video: media(job.source) } : {}),
  };
}
