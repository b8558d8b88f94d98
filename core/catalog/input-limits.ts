// What a model's vendor publishes about the inputs it takes (docs/providers/input-limits.md): beside the model in
// the catalog, shown in its detail card and docs/models.md, checked at admission against every input whose facts
// are in hand (data URIs, artifacts) and in the worker against the rest (URLs, once downloaded), so the vendor is
// never sent what it must refuse. Only published bounds are here: a bound the vendor does not publish is absent,
// and the service's own caps (core/media/limits.ts) apply alone.

export interface ImageInputLimits {
  // Formats as the service names them when it sniffs the bytes (png, jpeg, webp, gif).
  formats?: readonly string[];
  min_side?: number;
  max_side?: number;
  max_pixels?: number;
  // Width divided by height.
  min_aspect?: number;
  max_aspect?: number;
  max_bytes?: number;
}

export interface ClipInputLimits {
  // Containers as sniffed: mp4, mov, webm for video; mp3, wav, flac, ogg, m4a for audio.
  formats?: readonly string[];
  min_seconds?: number;
  max_seconds?: number;
  max_bytes?: number;
}

export interface VideoInputLimits extends ClipInputLimits {
  // Codecs as ffprobe names them (h264, hevc).
  codecs?: readonly string[];
  min_side?: number;
  max_side?: number;
  min_fps?: number;
  max_fps?: number;
}

export interface AudioInputLimits extends ClipInputLimits {
  min_sample_rate?: number;
  max_sample_rate?: number;
}

export interface InputLimits {
  // Every image, video or audio input of the model; a reference of that kind takes `reference_*` when given.
  image?: ImageInputLimits;
  video?: VideoInputLimits;
  audio?: AudioInputLimits;
  reference_image?: ImageInputLimits;
  reference_video?: VideoInputLimits;
  reference_audio?: AudioInputLimits;
  // The longest the inputs of one kind may last together, in seconds (a vendor that takes every clip of a task as
  // a reference counts them all).
  total_seconds?: { video?: number; audio?: number };
  // The most characters a top-level text field of the request may hold for this model (e.g. prompt: 7000).
  text?: Readonly<Record<string, number>>;
}

export const NO_PUBLISHED_LIMITS: InputLimits = {};

// Each family's published sets are in vendors/<family>/input-limits.ts, gathered with their sources in
// docs/providers/input-limits.md, and named by the catalog's model entries; a bound the vendor does not publish is
// left out of them. Their units: a vendor's "MB" is read as 10^6 bytes, the smaller reading, and MiB is taken where
// the vendor or the service says so.
export const MB = 1_000_000;
export const MIB = 1024 * 1024;
