import type { VideoJob } from "../video-job.js";

// The media of a vendorC synthesis as Model Studio's Wan 2.7 references define them (docs/providers/vendorC.md):
// one `input.media` list, each item a URL with the `type` that says its use. A reference's voice rides on its
// item as `reference_voice`, and its part in the clip as `reference_description`.

interface MediaItem {
  type: string;
  url: string;
  reference_voice?: string;
  reference_description?: string;
}


export function synthesisMedia(job: VideoJob): MediaItem[] {
  const media: MediaItem[] = [];
  if (job.firstFrame) media.push({ type: "first_frame", url: job.firstFrame.url });
  if (job.lastFrame) media.push({ type: "last_frame", url: job.lastFrame.url });
  if (job.source) media.push({ type: job.capability === "video_extend" ? "first_clip" : "video", url: job.source.url });
  for (const reference of job.references) {
    media.push({
      type: `reference_${reference.kind}`,
      url: reference.media.url,
      ...(reference.voice ? { reference_voice: reference.voice.url } : {}),
      ...(reference.role !== undefined ? { reference_description: reference.role } : {}),
    });
  }
  if (job.drivingAudio) media.push({ type: "driving_audio", url: job.drivingAudio.url });
  return media;
}

// The parameters only an edit or an extension has. The reference continues a `first_clip` at its end; an
// extension before the clip is asked for with a field of ours (docs/providers/vendorC.md, "Not in the reference").
export function reworkParameters(job: VideoJob): Record<string, unknown> {
  if (job.capability === "video_edit") return job.audioSetting ? { audio_setting: job.audioSetting } : {};
  if (job.capability === "video_extend" && job.direction === "before") return { extend_direction: "before" };
  return {};
}
