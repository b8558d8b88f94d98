import type { VideoJob } from "../video-job.js";

// The media part of a vendorC synthesis (docs/providers/vendorC.md): each input by URL in the field the vendor
// names for its use, and for edits and extensions the `function` that says what to do with `video_url`.

export function synthesisMedia(job: VideoJob): Record<string, unknown> {
  const media: Record<string, unknown> = {};
  if (job.capability === "image_to_video" && job.firstFrame) media.img_url = job.firstFrame.url;
  if (job.capability === "frames_to_video") {
    if (job.firstFrame) media.first_frame_url = job.firstFrame.url;
    if (job.lastFrame) media.last_frame_url = job.lastFrame.url;
  }
  if (job.drivingAudio) media.audio_url = job.drivingAudio.url;
  if (job.references.length > 0) {
    media.references = job.references.map((r) => ({
      type: r.kind,
      url: r.media.url,
      ...(r.role !== undefined ? { role: r.role } : {}),
      ...(r.voice ? { voice_url: r.voice.url } : {}),
    }));
  }
  if (job.source) {
    media.function = job.capability === "video_extend" ? "video_extension" : "video_edit";
    media.video_url = job.source.url;
  }
  return media;
}

// The parameters only an edit or an extension has.
export function reworkParameters(job: VideoJob): Record<string, unknown> {
  if (job.capability === "video_edit") return job.audioSetting ? { audio_setting: job.audioSetting } : {};
  if (job.capability === "video_extend") return { extend_direction: job.direction };
  return {};
}
