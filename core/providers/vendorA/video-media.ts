import type { VideoJob } from "../video-job.js";

// The content of a vendorA Video Generation V2 task (docs/providers/vendorA.md, "Video"): the text first, then
// each input as a URL the vendor downloads, with the role it plays. Frames and references never meet in one
// task: the service's capabilities keep them apart, as the vendor requires.

export type VideoContentItem =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string }; role: "first_frame" | "last_frame" | "reference_image" }
  | { type: "video_url"; video_url: { url: string }; role: "reference_video" }
  | { type: "audio_url"; audio_url: { url: string }; role: "reference_audio" };

// The vendor requires a non-empty text; SPEC.md lets image, frames and reference requests omit the prompt. Such a
// request is sent this plain instruction, which asks for nothing beyond what its media already say.
function textWithoutPrompt(job: VideoJob): string {
  if (job.references.length > 0) return "A video made from the reference media.";
  if (job.firstFrame && job.lastFrame) return "A video from the first frame to the last frame.";
  if (job.lastFrame) return "A video ending on the last frame.";
  return "A video starting from the first frame.";
}

function referenceItem(reference: VideoJob["references"][number]): VideoContentItem {
  const url = reference.media.url;
  switch (reference.kind) {
    case "image":
      return { type: "image_url", image_url: { url }, role: "reference_image" };
    case "video":
      return { type: "video_url", video_url: { url }, role: "reference_video" };
    case "audio":
      return { type: "audio_url", audio_url: { url }, role: "reference_audio" };
  }
}

export function videoMediaFields(job: VideoJob): { content: VideoContentItem[] } {
  return {
    content: [
      { type: "text", text: job.prompt ?? textWithoutPrompt(job) },
      ...(job.firstFrame ? [{ type: "image_url" as const, image_url: { url: job.firstFrame.url }, role: "first_frame" as const }] : []),
      ...(job.lastFrame ? [{ type: "image_url" as const, image_url: { url: job.lastFrame.url }, role: "last_frame" as const }] : []),
      ...job.references.map(referenceItem),
    ],
  };
}
