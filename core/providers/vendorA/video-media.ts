import type { VideoJob } from "../video-job.js";

// The media fields of a vendorA video task (docs/providers/vendorA.md): strict frames and subject references
// as URLs the vendor downloads.
export function videoMediaFields(job: VideoJob): Record<string, unknown> {
  return {
    ...(job.firstFrame ? { first_frame_image: job.firstFrame.url } : {}),
    ...(job.lastFrame ? { last_frame_image: job.lastFrame.url } : {}),
    ...(job.references.length > 0
      ? { subject_reference: job.references.map((r) => ({ type: r.role ?? "character", image: [r.media.url] })) }
      : {}),
  };
}
