import { CLONE_SAMPLE_LIMITS, MULTIMODAL_LIMITS, MUSIC_LIMITS, VIDEO_LIMITS } from "../families/vendor-a-models.js";
import { MODEL_LIMITS as VENDOR_G_LIMITS, UPLOAD_FORMATS } from "../families/vendor-g-models.js";
import { WAN_IMAGE_LIMITS } from "../families/vendor-c-image-models.js";
import type { PictureBounds, VendorInputBounds } from "../media/input-limits.js";

// What each emulated vendor publishes about the media and text it takes, by the model id its calls send
// (docs/providers/input-limits.md has the sources). The families hold every downloaded input and every text to
// these bounds (emulator/media/input-limits.ts); nothing here comes from the service's catalog. Texts are named by
// the vendor's own field.

const MB = 1_000_000;

const H3_PICTURE: PictureBounds = {
  formats: ["jpeg", "png", "webp"],
  minSide: VIDEO_LIMITS.referenceImage.minSide,
  maxSide: VIDEO_LIMITS.referenceImage.maxSide,
  minAspect: VIDEO_LIMITS.referenceImage.minAspect,
  maxAspect: VIDEO_LIMITS.referenceImage.maxAspect,
};
const H3_CLIP = { minSeconds: VIDEO_LIMITS.referenceClip.minSeconds, maxSeconds: VIDEO_LIMITS.referenceClip.maxSeconds };

const VENDOR_A: Readonly<Record<string, VendorInputBounds>> = {
  "MiniMax-H3": {
    image: H3_PICTURE,
    referenceVideo: { formats: ["mp4", "mov"], codecs: ["h264", "hevc"], ...H3_CLIP, minFps: 23.976, maxFps: 60 },
    referenceAudio: { formats: ["mp3", "wav"], ...H3_CLIP },
    togetherSeconds: { video: VIDEO_LIMITS.referenceClip.maxTotalSeconds, audio: VIDEO_LIMITS.referenceClip.maxTotalSeconds },
    textCharacters: { text: VIDEO_LIMITS.maxTextCharacters },
  },
  "MiniMax-M3": { video: { maxSeconds: MULTIMODAL_LIMITS.maxVideoSeconds } },
  "image-01-live": { textCharacters: { prompt: 1500 } },
  "music-3.0": { audio: { formats: MUSIC_LIMITS.reference.formats, minSeconds: MUSIC_LIMITS.reference.minSeconds, maxSeconds: MUSIC_LIMITS.reference.maxSeconds } },
  voice_clone: { audio: { formats: CLONE_SAMPLE_LIMITS.formats, minSeconds: CLONE_SAMPLE_LIMITS.minSeconds, maxSeconds: CLONE_SAMPLE_LIMITS.maxSeconds, maxBytes: CLONE_SAMPLE_LIMITS.maxBytes } },
};

// Seedance 2.x: every picture, clip and recording of a task, whatever its role, travels as a content item.
const SEEDANCE: VendorInputBounds = {
  image: { formats: ["jpeg", "png", "webp"], minSide: 300, maxSide: 6000, minAspect: 0.4, maxAspect: 2.5, maxBytes: 30 * MB },
  video: { formats: ["mp4", "mov"], minSeconds: 1.8, maxSeconds: 15, maxBytes: 50 * MB },
  audio: { formats: ["mp3", "wav"], minSeconds: 1.8, maxSeconds: 15, maxBytes: 15 * MB },
  togetherSeconds: { video: 15, audio: 15 },
};

const VENDOR_B: Readonly<Record<string, VendorInputBounds>> = {
  "dreamina-seedance-2-0-260128": SEEDANCE,
  "dreamina-seedance-2-0-fast-260128": SEEDANCE,
  "dreamina-seedance-2-0-mini": SEEDANCE,
  "dreamina-seedance-2-5-260628": SEEDANCE,
};

// Wan 2.7: pictures 240 to 8000 px a side and 1:8 to 8:1; the video models' at most 20 MB.
const WAN_PICTURE: PictureBounds = { formats: ["jpeg", "png", "webp"], minSide: 240, maxSide: 8000, minAspect: 1 / WAN_IMAGE_LIMITS.maxAspect, maxAspect: WAN_IMAGE_LIMITS.maxAspect };
const WAN_VIDEO_PICTURE: PictureBounds = { ...WAN_PICTURE, maxBytes: 20 * MB };
const WAN_CLIP = { formats: ["mp4", "mov"], minSeconds: 2, maxSeconds: 10, minSide: 240, maxSide: 4096, maxBytes: 100 * MB };
const WAN_DRIVING_AUDIO = { formats: ["wav", "mp3"], minSeconds: 2, maxSeconds: 30, maxBytes: 15 * MB };
const WAN_TEXT = { prompt: WAN_IMAGE_LIMITS.maxTextCharacters, negative_prompt: WAN_IMAGE_LIMITS.maxNegativePromptCharacters };

const VENDOR_C: Readonly<Record<string, VendorInputBounds>> = {
  "wan2.7-t2v": { audio: WAN_DRIVING_AUDIO, textCharacters: WAN_TEXT },
  "wan2.7-i2v": { image: WAN_VIDEO_PICTURE, video: WAN_CLIP, audio: WAN_DRIVING_AUDIO, textCharacters: WAN_TEXT },
  "wan2.7-r2v": { image: WAN_VIDEO_PICTURE, video: { ...WAN_CLIP, minSeconds: 1, maxSeconds: 30 }, textCharacters: WAN_TEXT },
  "wan2.7-videoedit": { image: WAN_VIDEO_PICTURE, video: WAN_CLIP, textCharacters: WAN_TEXT },
  "wan2.7-image-pro": { image: WAN_PICTURE, textCharacters: WAN_TEXT },
  "wan2.7-image": { image: WAN_PICTURE, textCharacters: WAN_TEXT },
};

const VENDOR_D: Readonly<Record<string, VendorInputBounds>> = {
  "veo-3.1-generate-preview": { image: { formats: ["png", "jpeg", "webp"] } },
};

const VENDOR_E: Readonly<Record<string, VendorInputBounds>> = {
  "imagen-3.0-capability-001": { image: { maxBytes: 10 * MB } },
};

const VENDOR_G: Readonly<Record<string, VendorInputBounds>> = Object.fromEntries(
  Object.entries(VENDOR_G_LIMITS).map(([id, limits]) => [id, { audio: { formats: UPLOAD_FORMATS, maxSeconds: limits.uploadSeconds } }]),
);

const BY_FAMILY: Readonly<Record<string, Readonly<Record<string, VendorInputBounds>>>> = {
  vendorA: VENDOR_A,
  vendorB: VENDOR_B,
  vendorC: VENDOR_C,
  vendorD: VENDOR_D,
  vendorE: VENDOR_E,
  vendorG: VENDOR_G,
};

// The bounds of a vendor model; a model whose vendor publishes none is held to none.
export function vendorInputBounds(family: string, vendorModelId: string): VendorInputBounds {
  return BY_FAMILY[family]?.[vendorModelId] ?? {};
}
