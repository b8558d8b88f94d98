import type { ReferenceKind } from "../contracts/media-input.js";
import type { VideoOutputFormat } from "../contracts/video-options.js";
import type { Price } from "../credits/pricing.js";
import { NO_PUBLISHED_LIMITS } from "./input-limits.js";
import { VENDOR_A_H3 } from "./vendors/vendorA/input-limits.js";
import { VENDOR_B_SEEDANCE } from "./vendors/vendorB/input-limits.js";
import { VENDOR_C_WAN27_EDIT, VENDOR_C_WAN27_I2V, VENDOR_C_WAN27_R2V, VENDOR_C_WAN27_T2V } from "./vendors/vendorC/input-limits.js";
import { VENDOR_D_VEO } from "./vendors/vendorD/input-limits.js";
import type { CatalogModelBase } from "./model-types.js";

// Video generation, edit and extend models. Every control a request can set is checked against these
// constraints at admission, and the catalog card shows the same values, so a rejection quotes the card.

export const VIDEO_OUTPUT_METER = "output_video_seconds";

// frames-to-video: both frames given, or only the last one (first_frame omitted).
export type FrameMode = "first_and_last" | "last_only";
export type EditAudioSetting = "auto" | "origin";

export interface VideoReferenceLimits {
  max_total: number;
  // 0 means the kind is not accepted at all.
  max_per_kind: Readonly<Record<ReferenceKind, number>>;
  // Whether a reference's `reference_voice` is used (a model that would ignore it is refused instead).
  reference_voice: boolean;
}

export interface VideoConstraints {
  // Output lengths in whole seconds the model can generate; `default_duration` is used when omitted or `auto`.
  durations: readonly number[];
  default_duration: number;
  resolutions: readonly string[];
  default_resolution: string;
  // Explicit ratios accepted; empty when the ratio follows the source media or is fixed.
  aspect_ratios: readonly string[];
  default_aspect_ratio: string | null;
  seed: boolean;
  negative_prompt: boolean;
  // Whether an explicit `enhance_prompt` boolean is honoured.
  enhance_prompt: boolean;
  // For the boolean controls below: the values the model can honour when the request sets one.
  watermark: readonly boolean[];
  generate_audio: readonly boolean[];
  web_search: readonly boolean[];
  return_last_frame: readonly boolean[];
  output_formats: readonly VideoOutputFormat[];
  // Driving audio: `audio` on text-to-video, `driving_audio` on image- and frames-to-video.
  driving_audio: boolean;
  frame_modes: readonly FrameMode[];
  references: VideoReferenceLimits;
  audio_settings: readonly EditAudioSetting[];
  // Shortest and longest final duration /v1/videos/extend accepts within the endpoint's own 2 to 30: the shortest
  // only where the model starts later than 2; the longest null when the model does not extend.
  extend_min_duration?: number;
  extend_max_duration: number | null;
}

export type VideoModel = CatalogModelBase<"video", VideoConstraints>;

function secondsRange(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function perSecond(byResolution: Record<string, bigint>): Price[] {
  return Object.entries(byResolution).map(([resolution, microPerUnit]) => ({
    meter: VIDEO_OUTPUT_METER,
    unit: "second",
    microPerUnit,
    per: 1n,
    when: { resolution },
  }));
}

const NO_REFERENCES: VideoReferenceLimits = { max_total: 0, max_per_kind: { image: 0, video: 0, audio: 0 }, reference_voice: false };
const WIDE_RATIOS = ["16:9", "9:16", "1:1", "4:3", "3:4"];
const ALL_RATIOS = ["21:9", "16:9", "4:3", "1:1", "3:4", "9:16"];

// What a model lacks unless it says otherwise: the base every entry below starts from.
const PLAIN: VideoConstraints = {
  durations: [5, 10],
  default_duration: 5,
  resolutions: ["720p"],
  default_resolution: "720p",
  aspect_ratios: [],
  default_aspect_ratio: null,
  seed: false,
  negative_prompt: false,
  enhance_prompt: false,
  watermark: [true],
  generate_audio: [false],
  web_search: [false],
  return_last_frame: [false],
  output_formats: ["mp4"],
  driving_audio: false,
  frame_modes: [],
  references: NO_REFERENCES,
  audio_settings: [],
  extend_max_duration: null,
};

const ALL_GENERATION = ["text_to_video", "image_to_video", "frames_to_video", "reference_to_video"];
const EVERY_VIDEO_CAPABILITY = [...ALL_GENERATION, "video_edit", "video_extend"];
const CREATED = 1_764_547_200;

const vendorC30: VideoConstraints = {
  ...PLAIN,
  resolutions: ["480p", "720p", "1080p"],
  aspect_ratios: WIDE_RATIOS,
  default_aspect_ratio: "16:9",
  seed: true,
  negative_prompt: true,
  enhance_prompt: true,
  watermark: [false, true],
  generate_audio: [false, true],
  driving_audio: true,
  frame_modes: ["first_and_last"],
  references: { max_total: 9, max_per_kind: { image: 5, video: 3, audio: 3 }, reference_voice: true },
  audio_settings: ["auto", "origin"],
  extend_max_duration: 15,
};

// Veo 3.1 makes 4, 6 or 8 s, but 1080p only at 8 s: 8 s is the length both tiers share.
const vendorD11: VideoConstraints = {
  ...PLAIN,
  durations: [8],
  default_duration: 8,
  resolutions: ["720p", "1080p"],
  default_resolution: "1080p",
  generate_audio: [true],
};

// Wan 2.7 renders 720P and 1080P only.
const vendorC27: VideoConstraints = {
  ...PLAIN,
  resolutions: ["720p", "1080p"],
  default_resolution: "1080p",
  seed: true,
  negative_prompt: true,
  enhance_prompt: true,
  watermark: [false, true],
  driving_audio: true,
};

const vendorB2: VideoConstraints = {
  ...PLAIN,
  durations: secondsRange(4, 15),
  resolutions: ["480p", "720p", "1080p"],
  aspect_ratios: ALL_RATIOS,
  default_aspect_ratio: "16:9",
  seed: true,
  watermark: [false, true],
  generate_audio: [false, true],
  web_search: [false, true],
  return_last_frame: [false, true],
  driving_audio: true,
  frame_modes: ["first_and_last", "last_only"],
  references: { max_total: 15, max_per_kind: { image: 9, video: 3, audio: 3 }, reference_voice: false },
  audio_settings: ["auto", "origin"],
  // Seedance's duration is 4 to 15 s, an extension's final length included.
  extend_min_duration: 4,
  extend_max_duration: 15,
};

export const VIDEO_MODELS: readonly VideoModel[] = [
  {
    id: "vendorA-h3",
    family: "vendorA",
    kind: "video",
    capabilities: ALL_GENERATION,
    created: CREATED,
    description: "4 to 15 second clips with sound at 768p or 2k; frames (a last frame alone too) or up to 9 image and 3 video references.",
    constraints: {
      ...PLAIN,
      durations: secondsRange(4, 15),
      default_duration: 5,
      resolutions: ["768p", "2k"],
      default_resolution: "768p",
      aspect_ratios: ALL_RATIOS,
      default_aspect_ratio: "16:9",
      watermark: [false],
      generate_audio: [true],
      frame_modes: ["first_and_last", "last_only"],
      // The vendor takes reference audio only beside a reference image or video, which these limits cannot say:
      // offered, it would let auto send an audio-only request to a call the vendor refuses.
      references: { max_total: 12, max_per_kind: { image: 9, video: 3, audio: 0 }, reference_voice: false },
    },
    // 2k at 1.625 times 768p, the ratio resellers of the vendor price H3 at.
    input_limits: VENDOR_A_H3,
    prices: perSecond({ "768p": 60_000n, "2k": 97_500n }),
  },
  {
    id: "vendorC3.0-video",
    family: "vendorC",
    kind: "video",
    capabilities: EVERY_VIDEO_CAPABILITY,
    created: CREATED,
    description: "General video model for every video endpoint; synchronized audio, driving audio, mixed references.",
    constraints: vendorC30,
    input_limits: NO_PUBLISHED_LIMITS,
    prices: perSecond({ "480p": 30_000n, "720p": 60_000n, "1080p": 100_000n }),
  },
  {
    id: "vendorC3.0-video-prime",
    family: "vendorC",
    kind: "video",
    capabilities: EVERY_VIDEO_CAPABILITY,
    created: CREATED,
    description: "The premium vendorC model: up to 15 s and 4K, 21:9, last-frame-only, last-frame output and MOV.",
    constraints: {
      ...vendorC30,
      durations: [5, 10, 15],
      resolutions: ["720p", "1080p", "4k"],
      default_resolution: "1080p",
      aspect_ratios: [...WIDE_RATIOS, "21:9"],
      return_last_frame: [false, true],
      output_formats: ["mp4", "mov"],
      frame_modes: ["first_and_last", "last_only"],
      references: { max_total: 12, max_per_kind: { image: 9, video: 3, audio: 3 }, reference_voice: true },
      extend_max_duration: 30,
    },
    input_limits: NO_PUBLISHED_LIMITS,
    prices: perSecond({ "720p": 90_000n, "1080p": 150_000n, "4k": 400_000n }),
  },
  {
    id: "vendorD-1.1-t2v",
    family: "vendorD",
    kind: "video",
    capabilities: ["text_to_video"],
    created: CREATED,
    description: "Text to video with audio always on, landscape or portrait, 8 seconds.",
    constraints: { ...vendorD11, aspect_ratios: ["16:9", "9:16"], default_aspect_ratio: "16:9" },
    input_limits: VENDOR_D_VEO,
    prices: perSecond({ "720p": 70_000n, "1080p": 140_000n }),
  },
  {
    id: "vendorD-1.1-i2v",
    family: "vendorD",
    kind: "video",
    capabilities: ["image_to_video"],
    created: CREATED,
    description: "Animates a first frame at its own aspect ratio, audio always on.",
    constraints: vendorD11,
    input_limits: VENDOR_D_VEO,
    prices: perSecond({ "720p": 70_000n, "1080p": 140_000n }),
  },
  {
    id: "vendorD-1.1-r2v",
    family: "vendorD",
    kind: "video",
    capabilities: ["reference_to_video"],
    created: CREATED,
    description: "Up to three subject images composed into one clip, landscape or portrait, audio always on.",
    constraints: {
      ...vendorD11,
      aspect_ratios: ["16:9", "9:16"],
      default_aspect_ratio: "16:9",
      references: { max_total: 3, max_per_kind: { image: 3, video: 0, audio: 0 }, reference_voice: false },
    },
    input_limits: VENDOR_D_VEO,
    prices: perSecond({ "720p": 70_000n, "1080p": 140_000n }),
  },
  {
    id: "vendorD-1.0-video-edit",
    family: "vendorD",
    kind: "video",
    capabilities: ["video_edit"],
    created: CREATED,
    description: "Instruction-based 8 second edit at 720p that always regenerates the soundtrack; no references.",
    constraints: { ...PLAIN, durations: [8], default_duration: 8, generate_audio: [true], audio_settings: ["auto"] },
    input_limits: VENDOR_D_VEO,
    prices: perSecond({ "720p": 80_000n }),
  },
  {
    id: "vendorC2.7-t2v",
    family: "vendorC",
    kind: "video",
    capabilities: ["text_to_video"],
    created: CREATED,
    description: "Economical silent text to video, 5 or 10 seconds, 720p or 1080p.",
    constraints: { ...vendorC27, aspect_ratios: WIDE_RATIOS, default_aspect_ratio: "16:9" },
    input_limits: VENDOR_C_WAN27_T2V,
    prices: perSecond({ "720p": 40_000n, "1080p": 80_000n }),
  },
  {
    id: "vendorC2.7-i2v",
    family: "vendorC",
    kind: "video",
    capabilities: ["image_to_video", "frames_to_video", "video_extend"],
    created: CREATED,
    description: "Economical silent image, frames and extension model; ratio follows the source; extends to 10 s.",
    constraints: { ...vendorC27, frame_modes: ["first_and_last"], extend_max_duration: 10 },
    input_limits: VENDOR_C_WAN27_I2V,
    prices: perSecond({ "720p": 40_000n, "1080p": 80_000n }),
  },
  {
    id: "vendorC2.7-r2v",
    family: "vendorC",
    kind: "video",
    capabilities: ["reference_to_video"],
    created: CREATED,
    description: "Economical reference model: up to three images and three videos, five in all.",
    constraints: {
      ...vendorC27,
      aspect_ratios: ["16:9", "9:16", "1:1"],
      default_aspect_ratio: "16:9",
      references: { max_total: 5, max_per_kind: { image: 3, video: 3, audio: 0 }, reference_voice: false },
    },
    input_limits: VENDOR_C_WAN27_R2V,
    prices: perSecond({ "720p": 40_000n, "1080p": 80_000n }),
  },
  {
    id: "vendorC2.7-videoedit",
    family: "vendorC",
    kind: "video",
    capabilities: ["video_edit"],
    created: CREATED,
    description: "Economical instruction edit with up to four image references; keeps or replaces source audio.",
    constraints: {
      ...vendorC27,
      durations: secondsRange(3, 10),
      references: { max_total: 4, max_per_kind: { image: 4, video: 0, audio: 0 }, reference_voice: false },
      audio_settings: ["auto", "origin"],
    },
    input_limits: VENDOR_C_WAN27_EDIT,
    prices: perSecond({ "720p": 40_000n, "1080p": 80_000n }),
  },
  {
    id: "vendorB-2",
    family: "vendorB",
    kind: "video",
    capabilities: EVERY_VIDEO_CAPABILITY,
    created: CREATED,
    description: "The vendorB-2 flagship: 4 to 15 s, every ratio, audio, web search, last-frame output.",
    constraints: vendorB2,
    input_limits: VENDOR_B_SEEDANCE,
    prices: perSecond({ "480p": 40_000n, "720p": 80_000n, "1080p": 180_000n }),
  },
  {
    id: "vendorB-2-fast",
    family: "vendorB",
    kind: "video",
    capabilities: EVERY_VIDEO_CAPABILITY,
    created: CREATED,
    description: "Faster vendorB-2 at up to 720p and 12 s; no web search, no driving audio, no last-frame-only.",
    constraints: {
      ...vendorB2,
      durations: secondsRange(4, 12),
      resolutions: ["480p", "720p"],
      web_search: [false],
      driving_audio: false,
      frame_modes: ["first_and_last"],
      references: { max_total: 6, max_per_kind: { image: 4, video: 1, audio: 1 }, reference_voice: false },
      audio_settings: ["auto"],
      extend_max_duration: 12,
    },
    input_limits: VENDOR_B_SEEDANCE,
    prices: perSecond({ "480p": 25_000n, "720p": 50_000n }),
  },
  {
    id: "vendorB-2-mini",
    family: "vendorB",
    kind: "video",
    capabilities: EVERY_VIDEO_CAPABILITY,
    created: CREATED,
    description: "Smallest vendorB-2: 480p, 5 or 10 s, three ratios, watermarked, silent, image references only.",
    constraints: {
      ...PLAIN,
      resolutions: ["480p"],
      default_resolution: "480p",
      aspect_ratios: ["16:9", "9:16", "1:1"],
      default_aspect_ratio: "16:9",
      frame_modes: ["first_and_last"],
      references: { max_total: 4, max_per_kind: { image: 4, video: 0, audio: 0 }, reference_voice: false },
      audio_settings: ["auto"],
      extend_min_duration: 4,
      extend_max_duration: 10,
    },
    input_limits: VENDOR_B_SEEDANCE,
    prices: perSecond({ "480p": 15_000n }),
  },
  {
    id: "vendorB-2.5",
    family: "vendorB",
    kind: "video",
    capabilities: EVERY_VIDEO_CAPABILITY,
    created: CREATED,
    description: "The newest vendorB model: 4 to 15 s at 1080p by default, up to 50 references with voices, every control.",
    constraints: {
      ...vendorB2,
      default_resolution: "1080p",
      negative_prompt: true,
      enhance_prompt: true,
      references: { max_total: 50, max_per_kind: { image: 50, video: 10, audio: 10 }, reference_voice: true },
    },
    input_limits: VENDOR_B_SEEDANCE,
    prices: perSecond({ "480p": 50_000n, "720p": 100_000n, "1080p": 220_000n }),
  },
];

// The models of one endpoint, in catalog order; VIDEO_MODELS is ordered so this is SPEC.md's order everywhere.
export function videoModelsFor(capabilityId: string): readonly VideoModel[] {
  return VIDEO_MODELS.filter((m) => m.capabilities.includes(capabilityId));
}
