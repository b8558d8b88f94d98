import type { VideoJob } from "../video-job.js";

// What a vendorB generation task is made of (docs/providers/vendorB.md): a `content` list of the prompt and
// every media input by URL, each tagged with the role it plays, plus the fields that say what kind of task it is.

type MediaItem = (
  | { type: "image_url"; image_url: { url: string } }
  | { type: "video_url"; video_url: { url: string } }
  | { type: "audio_url"; audio_url: { url: string } }
) & { role: string; reference_role?: string; reference_index?: number };

type ContentItem = { type: "text"; text: string } | MediaItem;

function mediaItem(kind: "image" | "video" | "audio", url: string, role: string): MediaItem {
  switch (kind) {
    case "image":
      return { type: "image_url", image_url: { url }, role };
    case "video":
      return { type: "video_url", video_url: { url }, role };
    case "audio":
      return { type: "audio_url", audio_url: { url }, role };
  }
}

export function videoContent(job: VideoJob): ContentItem[] {
  const content: ContentItem[] = job.prompt === undefined ? [] : [{ type: "text", text: job.prompt }];
  if (job.firstFrame) content.push(mediaItem("image", job.firstFrame.url, "first_frame"));
  if (job.lastFrame) content.push(mediaItem("image", job.lastFrame.url, "last_frame"));
  job.references.forEach((reference, index) => {
    const item = mediaItem(reference.kind, reference.media.url, `reference_${reference.kind}`);
    content.push(reference.role === undefined ? item : { ...item, reference_role: reference.role });
    // A voice belongs to the reference before it; the index says which, should the list be reordered.
    if (reference.voice) content.push({ type: "audio_url", audio_url: { url: reference.voice.url }, role: "reference_voice", reference_index: index });
  });
  if (job.drivingAudio) content.push(mediaItem("audio", job.drivingAudio.url, "driving_audio"));
  if (job.source) content.push(mediaItem("video", job.source.url, "source_video"));
  return content;
}

// The task-kind fields: an edit or an extension of the `source_video`, with its own controls.
export function taskKindFields(job: VideoJob): Record<string, unknown> {
  if (job.capability === "video_edit") return { task_type: "video_edit", ...(job.audioSetting ? { audio_setting: job.audioSetting } : {}) };
  if (job.capability === "video_extend") return { task_type: "video_extend", extend_direction: job.direction };
  return {};
}
