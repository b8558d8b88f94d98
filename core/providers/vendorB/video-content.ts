import type { ResolvedMediaInput } from "../vendor-input.js";
import type { VideoJob } from "../video-job.js";

// The `content` of a vendorB generation task as its reference defines it (docs/providers/vendorB.md): one text
// item and media items by URL, each with one of the roles the reference lists. Everything else the task says
// (which reference is the subject, which audio is a voice or drives the speech, that a video is to be edited
// or extended, what to avoid) is said in the text, naming each medium as the vendor's prompt guide does:
// "image 1", "video 1", "audio 1", numbered per kind in content order.

type Kind = "image" | "video" | "audio";
type Role = "first_frame" | "last_frame" | "reference_image" | "reference_video" | "reference_audio";

type MediaItem =
  | { type: "image_url"; image_url: { url: string }; role: Role }
  | { type: "video_url"; video_url: { url: string }; role: Role }
  | { type: "audio_url"; audio_url: { url: string }; role: Role };

type ContentItem = { type: "text"; text: string } | MediaItem;

function mediaItem(kind: Kind, url: string, role: Role): MediaItem {
  switch (kind) {
    case "image":
      return { type: "image_url", image_url: { url }, role };
    case "video":
      return { type: "video_url", video_url: { url }, role };
    case "audio":
      return { type: "audio_url", audio_url: { url }, role };
  }
}

// Builds the media list and hands out each medium's name ("audio 2") as it is added.
class MediaList {
  readonly items: MediaItem[] = [];
  private readonly counts: Record<Kind, number> = { image: 0, video: 0, audio: 0 };

  add(kind: Kind, media: ResolvedMediaInput, role: Role): string {
    this.items.push(mediaItem(kind, media.url, role));
    this.counts[kind] += 1;
    return `${kind} ${this.counts[kind]}`;
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function videoContent(job: VideoJob): ContentItem[] {
  const media = new MediaList();
  const directions: string[] = [];
  if (job.firstFrame) media.add("image", job.firstFrame, "first_frame");
  if (job.lastFrame) media.add("image", job.lastFrame, "last_frame");
  for (const reference of job.references) {
    const name = media.add(reference.kind, reference.media, `reference_${reference.kind}`);
    if (reference.role !== undefined) directions.push(`${capitalized(name)} is the ${reference.role}.`);
    if (reference.voice) directions.push(`${capitalized(media.add("audio", reference.voice, "reference_audio"))} is the voice of ${name}.`);
  }
  if (job.drivingAudio) directions.push(`${capitalized(media.add("audio", job.drivingAudio, "reference_audio"))} is the driving audio.`);
  if (job.source) directions.push(...reworkDirections(job, media.add("video", job.source, "reference_video")));
  if (job.negativePrompt !== undefined) directions.push(`Avoid: ${job.negativePrompt}.`);
  const text = [...directions, ...(job.prompt === undefined ? [] : [job.prompt])].join("\n");
  return [...(text === "" ? [] : [{ type: "text" as const, text }]), ...media.items];
}

// An edit reworks the source video, an extension continues it at one end; the instruction follows as the prompt.
function reworkDirections(job: VideoJob, source: string): string[] {
  if (job.capability === "video_extend") return [`Extend ${source} at its ${job.direction === "before" ? "start" : "end"}.`];
  return [`Edit ${source}.`, ...(job.audioSetting === "origin" ? [`Keep the original audio of ${source}.`] : [])];
}
