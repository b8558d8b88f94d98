import { VIDEO_MODELS, type EditAudioSetting, type VideoModel } from "../catalog/video-models.js";
import { videoDimensions } from "../catalog/video-dimensions.js";
import type { ReferenceKind } from "../contracts/media-input.js";
import type { VideoOutputFormat } from "../contracts/video-options.js";
import type { ProviderRequestOf } from "./served-capabilities.js";
import { ProviderFailure } from "./types.js";
import type { ResolvedMediaInput, VendorInputOf } from "./vendor-input.js";

// A video generation, edit or extend request with every default filled in from the model's catalog entry and
// every media input as the worker resolved it (a signed URL of ours plus the facts decoding established), so
// that each family's adapter only translates it into its own wire vocabulary. Admission already checked every
// explicit control against the same constraints; what is left here is choosing the values of the omitted ones.

const VIDEO_JOB_CAPABILITIES = ["text_to_video", "image_to_video", "frames_to_video", "reference_to_video", "video_edit", "video_extend"] as const;
export type VideoJobCapability = (typeof VIDEO_JOB_CAPABILITIES)[number];

// Every video capability served by one handler, for a family whose video calls read what differs from the job.
export function everyVideoJob<Handler>(handler: Handler): Record<VideoJobCapability, Handler> {
  return Object.fromEntries(VIDEO_JOB_CAPABILITIES.map((capability) => [capability, handler])) as Record<VideoJobCapability, Handler>;
}

export interface VideoJobReference {
  kind: ReferenceKind;
  media: ResolvedMediaInput;
  role: string | undefined;
  voice: ResolvedMediaInput | undefined;
}

// The text and media of a video request, which each capability's input names in its own way.
interface VideoJobMedia {
  // The prompt, or the instruction of an edit or extension; image, frames and reference requests may omit it.
  prompt: string | undefined;
  firstFrame: ResolvedMediaInput | undefined;
  lastFrame: ResolvedMediaInput | undefined;
  drivingAudio: ResolvedMediaInput | undefined;
  references: VideoJobReference[];
  // The video an edit reworks or an extension continues.
  source: ResolvedMediaInput | undefined;
  direction: "before" | "after" | undefined;
  audioSetting: EditAudioSetting | undefined;
}

export interface VideoJob extends VideoJobMedia {
  capability: VideoJobCapability;
  model: VideoModel;
  negativePrompt: string | undefined;
  // The final duration: for an extension, the source and the new part together.
  durationSeconds: number;
  resolution: string;
  aspectRatio: string;
  // True when the ratio is the source media's own (edit and extend, or a model without a ratio list): vendors
  // that derive it themselves are told to, the others are sent the frame computed from the decoded source.
  followsSource: boolean;
  width: number;
  height: number;
  seed: number | undefined;
  // An omitted or null enhance_prompt keeps the prompt as written (SPEC.md), so it is false unless asked.
  enhancePrompt: boolean;
  watermark: boolean;
  generateAudio: boolean;
  webSearch: boolean;
  returnLastFrame: boolean;
  outputFormat: VideoOutputFormat;
}

const NO_MEDIA: VideoJobMedia = {
  prompt: undefined,
  firstFrame: undefined,
  lastFrame: undefined,
  drivingAudio: undefined,
  references: [],
  source: undefined,
  direction: undefined,
  audioSetting: undefined,
};

function referencesOf(references: VendorInputOf<"reference_to_video">["references"] | undefined): VideoJobReference[] {
  return (references ?? []).map((r) => ({ kind: r.kind, media: r.media, role: r.role, voice: r.reference_voice }));
}

function mediaOf(request: ProviderRequestOf<VideoJobCapability>): VideoJobMedia {
  switch (request.capability) {
    case "text_to_video":
      return { ...NO_MEDIA, prompt: request.input.prompt, drivingAudio: request.input.audio };
    case "image_to_video":
      return { ...NO_MEDIA, prompt: request.input.prompt, firstFrame: request.input.image, drivingAudio: request.input.driving_audio };
    case "frames_to_video": {
      const input = request.input;
      return { ...NO_MEDIA, prompt: input.prompt, firstFrame: input.first_frame, lastFrame: input.last_frame, drivingAudio: input.driving_audio };
    }
    case "reference_to_video":
      return { ...NO_MEDIA, prompt: request.input.prompt, references: referencesOf(request.input.references) };
    case "video_edit": {
      const input = request.input;
      return { ...NO_MEDIA, prompt: input.instruction, references: referencesOf(input.references), source: input.source_video, audioSetting: input.audio_setting };
    }
    case "video_extend": {
      const input = request.input;
      return { ...NO_MEDIA, prompt: input.instruction, references: referencesOf(input.references), source: input.video, direction: input.direction };
    }
  }
}

// An omitted boolean control is off where the model can turn it off: a model that always watermarks or always
// produces audio keeps doing so, every other model stays plain and silent unless asked.
function omittedBoolean(supported: readonly boolean[]): boolean {
  return !supported.includes(false);
}

// The picture an output can take its ratio from: the source of an edit or extension, a strict first frame,
// or the last frame of a last-frame-only request.
function visualSource(media: VideoJobMedia): ResolvedMediaInput | undefined {
  const picture = media.source ?? media.firstFrame ?? media.lastFrame;
  return picture?.width && picture.height ? picture : undefined;
}

// Edit and extend keep their source's ratio unless asked otherwise (the output is that video reworked or
// continued); generation takes the model's declared default, and a model without one follows its picture.
function chooseAspectRatio(capability: VideoJobCapability, model: VideoModel, asked: string | undefined, media: VideoJobMedia) {
  if (asked !== undefined) return { aspectRatio: asked, followsSource: false };
  const source = visualSource(media);
  const reworks = capability === "video_edit" || capability === "video_extend";
  if (source && (reworks || model.constraints.default_aspect_ratio === null)) {
    return { aspectRatio: `${source.width}:${source.height}`, followsSource: true };
  }
  return { aspectRatio: model.constraints.default_aspect_ratio ?? "16:9", followsSource: false };
}

export function videoJob(request: ProviderRequestOf<VideoJobCapability>): VideoJob {
  const model = VIDEO_MODELS.find((m) => m.id === request.model);
  const capability = request.capability;
  if (!model?.capabilities.includes(capability)) {
    throw new ProviderFailure("model_unavailable", `${request.model} cannot serve ${capability}`, false);
  }
  const input = request.input;
  const media = mediaOf(request);
  const c = model.constraints;
  const resolution = input.resolution ?? c.default_resolution;
  const { aspectRatio, followsSource } = chooseAspectRatio(capability, model, input.aspect_ratio, media);
  const duration = input.duration;
  return {
    ...media,
    capability,
    model,
    negativePrompt: input.negative_prompt,
    durationSeconds: typeof duration === "number" ? duration : c.default_duration,
    resolution,
    aspectRatio,
    followsSource,
    ...videoDimensions(resolution, aspectRatio),
    seed: input.seed,
    enhancePrompt: input.enhance_prompt ?? false,
    watermark: input.watermark ?? omittedBoolean(c.watermark),
    generateAudio: input.generate_audio ?? omittedBoolean(c.generate_audio),
    webSearch: input.web_search ?? false,
    returnLastFrame: input.return_last_frame ?? false,
    outputFormat: input.output_format ?? "mp4",
  };
}
