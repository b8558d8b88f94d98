import type { AudioInputLimits, ImageInputLimits, InputLimits, VideoInputLimits } from "../catalog/input-limits.js";
import type { ReferenceKind } from "../contracts/media-input.js";
import type { CandidateFailure } from "./candidate-failure.js";

// A model's published input limits (core/catalog/input-limits.ts) against the facts of a request's inputs: at
// admission for the inputs whose bytes are in hand, in the worker for the rest once downloaded. Both ask this one
// function, so a task is refused for the same reason with the same words wherever its input's facts were learnt.

// The facts of one media input as decoding established them; null where the decoder could not tell.
export interface InputFacts {
  format: string;
  byteSize: number | null;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  codec: string | null;
  frameRate: number | null;
  sampleRate: number | null;
}

export interface KnownInput {
  // JSON Pointer of the media field (a reference's `/references/0/media`).
  param: string;
  kind: ReferenceKind;
  // A `media` of `references[]`, which takes the model's reference limits where it has them.
  reference: boolean;
  facts: InputFacts;
}

export type LimitFailure = Omit<CandidateFailure, "model">;

// The specific codes of candidate failures; a concrete model answers media_too_large for a size, else
// unsupported_option (core/selection/select.ts).
export const INPUT_LIMIT_CODES = [
  "media_too_large",
  "unsupported_media_format",
  "unsupported_video_codec",
  "unsupported_media_dimensions",
  "unsupported_media_aspect_ratio",
  "unsupported_media_duration",
  "unsupported_frame_rate",
  "unsupported_sample_rate",
  "text_too_long",
] as const;

type Code = (typeof INPUT_LIMIT_CODES)[number];

function fail(code: Code, param: string, message: string, received: unknown, supported: unknown): LimitFailure {
  return { code, param, message: `${param}: ${message}`, received, supported };
}

function range(min: number | undefined, max: number | undefined, unit: string): string {
  if (min !== undefined && max !== undefined) return `${min} to ${max}${unit}`;
  return min !== undefined ? `at least ${min}${unit}` : `at most ${max ?? 0}${unit}`;
}

function outside(value: number, min: number | undefined, max: number | undefined): boolean {
  return (min !== undefined && value < min) || (max !== undefined && value > max);
}

// Rounded for messages only; the comparisons use the exact values.
function shown(value: number): number {
  return Number(value.toFixed(3));
}

function commonFailures(limits: ImageInputLimits | VideoInputLimits | AudioInputLimits, input: KnownInput): LimitFailure[] {
  const { facts, param } = input;
  const failures: LimitFailure[] = [];
  if (limits.formats && !limits.formats.includes(facts.format)) {
    failures.push(fail("unsupported_media_format", param, `${facts.format} is not one of ${limits.formats.join(", ")}`, facts.format, limits.formats));
  }
  if (limits.max_bytes !== undefined && facts.byteSize !== null && facts.byteSize > limits.max_bytes) {
    failures.push(fail("media_too_large", param, `${facts.byteSize} bytes is over ${limits.max_bytes}`, facts.byteSize, { max_bytes: limits.max_bytes }));
  }
  return failures;
}

function pictureFailures(limits: ImageInputLimits | VideoInputLimits, input: KnownInput): LimitFailure[] {
  const { facts, param } = input;
  if (facts.width === null || facts.height === null) return [];
  const failures: LimitFailure[] = [];
  const size = `${facts.width}×${facts.height}`;
  const short = Math.min(facts.width, facts.height);
  const long = Math.max(facts.width, facts.height);
  const sides = { min_side: limits.min_side, max_side: limits.max_side };
  if (limits.min_side !== undefined && short < limits.min_side) {
    failures.push(fail("unsupported_media_dimensions", param, `${size} px: its short side is under ${limits.min_side} px`, size, sides));
  } else if (limits.max_side !== undefined && long > limits.max_side) {
    failures.push(fail("unsupported_media_dimensions", param, `${size} px: its long side is over ${limits.max_side} px`, size, sides));
  }
  if ("max_pixels" in limits && limits.max_pixels !== undefined && facts.width * facts.height > limits.max_pixels) {
    failures.push(fail("unsupported_media_dimensions", param, `${size} px is over ${limits.max_pixels} pixels`, size, { max_pixels: limits.max_pixels }));
  }
  if ("min_aspect" in limits || "max_aspect" in limits) {
    const image = limits as ImageInputLimits;
    const aspect = facts.width / facts.height;
    if (outside(aspect, image.min_aspect, image.max_aspect)) {
      failures.push(fail("unsupported_media_aspect_ratio", param, `width / height ${shown(aspect)} is outside ${range(image.min_aspect, image.max_aspect, "")}`, shown(aspect), { min_aspect: image.min_aspect, max_aspect: image.max_aspect }));
    }
  }
  return failures;
}

function clipFailures(limits: VideoInputLimits | AudioInputLimits, input: KnownInput): LimitFailure[] {
  const { facts, param } = input;
  const seconds = facts.durationSeconds;
  if (seconds === null || !outside(seconds, limits.min_seconds, limits.max_seconds)) return [];
  return [fail("unsupported_media_duration", param, `lasts ${shown(seconds)} s, outside ${range(limits.min_seconds, limits.max_seconds, " s")}`, shown(seconds), { min_seconds: limits.min_seconds, max_seconds: limits.max_seconds })];
}

function videoFailures(limits: VideoInputLimits, input: KnownInput): LimitFailure[] {
  const { facts, param } = input;
  const failures = [...commonFailures(limits, input), ...pictureFailures(limits, input), ...clipFailures(limits, input)];
  if (limits.codecs && facts.codec !== null && !limits.codecs.includes(facts.codec)) {
    failures.push(fail("unsupported_video_codec", param, `codec ${facts.codec} is not one of ${limits.codecs.join(", ")}`, facts.codec, limits.codecs));
  }
  if (facts.frameRate !== null && outside(facts.frameRate, limits.min_fps, limits.max_fps)) {
    failures.push(fail("unsupported_frame_rate", param, `${shown(facts.frameRate)} fps is outside ${range(limits.min_fps, limits.max_fps, " fps")}`, shown(facts.frameRate), { min_fps: limits.min_fps, max_fps: limits.max_fps }));
  }
  return failures;
}

function audioFailures(limits: AudioInputLimits, input: KnownInput): LimitFailure[] {
  const { facts, param } = input;
  const failures = [...commonFailures(limits, input), ...clipFailures(limits, input)];
  if (facts.sampleRate !== null && outside(facts.sampleRate, limits.min_sample_rate, limits.max_sample_rate)) {
    failures.push(fail("unsupported_sample_rate", param, `${facts.sampleRate} Hz is outside ${range(limits.min_sample_rate, limits.max_sample_rate, " Hz")}`, facts.sampleRate, { min_sample_rate: limits.min_sample_rate, max_sample_rate: limits.max_sample_rate }));
  }
  return failures;
}

function mediaFailures(limits: InputLimits, input: KnownInput): LimitFailure[] {
  switch (input.kind) {
    case "image": {
      const own = (input.reference ? limits.reference_image : undefined) ?? limits.image;
      return own ? [...commonFailures(own, input), ...pictureFailures(own, input)] : [];
    }
    case "video": {
      const own = (input.reference ? limits.reference_video : undefined) ?? limits.video;
      return own ? videoFailures(own, input) : [];
    }
    case "audio": {
      const own = (input.reference ? limits.reference_audio : undefined) ?? limits.audio;
      return own ? audioFailures(own, input) : [];
    }
  }
}

function togetherFailures(limits: InputLimits, inputs: readonly KnownInput[]): LimitFailure[] {
  const failures: LimitFailure[] = [];
  for (const kind of ["video", "audio"] as const) {
    const max = limits.total_seconds?.[kind];
    if (max === undefined) continue;
    const clips = inputs.filter((i) => i.kind === kind);
    const total = clips.reduce((sum, i) => sum + (i.facts.durationSeconds ?? 0), 0);
    if (total > max) {
      const param = clips.every((i) => i.reference) ? "/references" : (clips[clips.length - 1] as KnownInput).param;
      failures.push(fail("unsupported_media_duration", param, `the ${kind} inputs last ${shown(total)} s together, over ${max} s`, shown(total), { max_total_seconds: max }));
    }
  }
  return failures;
}

function textFailures(limits: InputLimits, body: Readonly<Record<string, unknown>>): LimitFailure[] {
  const failures: LimitFailure[] = [];
  for (const [field, max] of Object.entries(limits.text ?? {})) {
    const value = body[field];
    if (typeof value !== "string") continue;
    const characters = [...value].length;
    if (characters > max) failures.push(fail("text_too_long", `/${field}`, `${characters} characters is over ${max}`, characters, { max_characters: max }));
  }
  return failures;
}

// Every way the known inputs of a request break the model's limits; inputs not yet known are checked later.
export function inputLimitFailures(limits: InputLimits, inputs: readonly KnownInput[], body: Readonly<Record<string, unknown>>): LimitFailure[] {
  return [...textFailures(limits, body), ...inputs.flatMap((input) => mediaFailures(limits, input)), ...togetherFailures(limits, inputs)];
}
