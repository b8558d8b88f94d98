import type { AudioInputLimits, ImageInputLimits, InputLimits, VideoInputLimits } from "./input-limits.js";

// The input limits each vendor publishes for its models, as docs/providers/input-limits.md gathers them with their
// sources; the catalog's model entries name these sets. A vendor's "MB" is read as 10^6 bytes, the smaller reading.
// Bounds the vendor does not publish are left out: the service's own caps (core/media/limits.ts) then apply alone.

const MB = 1_000_000;
const MIB = 1024 * 1024;

// vendorA, MiniMax-H3 (Video Generation V2): every picture (frames and reference images) JPEG, PNG or WebP with
// sides of 256 to 5760 px and an aspect of 0.4 to 2.5; reference videos MP4 or MOV in H.264 or H.265 of 2 to 15 s
// at 23.976 to 60 fps; the references of one kind 15 s together; the text at most 7000 characters.
const H3_PICTURE: ImageInputLimits = { formats: ["jpeg", "png", "webp"], min_side: 256, max_side: 5760, min_aspect: 0.4, max_aspect: 2.5 };
export const VENDOR_A_H3: InputLimits = {
  image: H3_PICTURE,
  reference_video: { formats: ["mp4", "mov"], codecs: ["h264", "hevc"], min_seconds: 2, max_seconds: 15, min_fps: 23.976, max_fps: 60 },
  reference_audio: { formats: ["mp3", "wav"], min_seconds: 2, max_seconds: 15 },
  total_seconds: { video: 15, audio: 15 },
  text: { prompt: 7000 },
};

// vendorA-M3: the longest video it reads (its price hold covers exactly this much; understanding-models.ts).
export function vendorAUnderstanding(maxVideoSeconds: number): InputLimits {
  return { video: { max_seconds: maxVideoSeconds } };
}

// vendorA's image-01-live: a prompt of at most 1500 characters.
export const VENDOR_A_IMAGE: InputLimits = { text: { prompt: 1500 } };

// vendorA voice clone: the uploaded sample is mp3, m4a or wav, 10 s to 5 min, at most 20 MB.
export const VENDOR_A_CLONE_SAMPLE: AudioInputLimits = { formats: ["mp3", "m4a", "wav"], min_seconds: 10, max_seconds: 300, max_bytes: 20 * MB };

// vendorA music-3.0 with a reference recording (the service's reference mode; the vendor publishes no recording
// bounds of its own, docs/providers/vendorA.md "Music"): mp3, wav or flac of 10 s to 5 min, at most 20 MiB.
export const VENDOR_A_MUSIC_REFERENCE: AudioInputLimits = { formats: ["mp3", "wav", "flac"], min_seconds: 10, max_seconds: 300, max_bytes: 20 * MIB };

// vendorG V5's upload-cover: the recording lasts at most 8 minutes. Its format, shortest length and size are the
// service's (docs/providers/vendorG.md "Not in the reference").
export const VENDOR_G_REFERENCE: AudioInputLimits = { formats: ["mp3", "wav", "m4a", "ogg"], min_seconds: 6, max_seconds: 480, max_bytes: 50 * MIB };

// vendorB, Seedance 2.x (docs/providers/input-limits.md: third-party pages quoting the vendor's reference): pictures
// JPEG, PNG or WebP of 300 to 6000 px a side, aspect 0.4 to 2.5, under 30 MB; videos MP4 or MOV of at least 1.8 s,
// under 50 MB; audio MP3 or WAV of at least 1.8 s, at most 15 MB; each kind 15 s together. Frames, driving audio
// and a source video travel as the same content items, so the same bounds hold for them.
const SEEDANCE_PICTURE: ImageInputLimits = { formats: ["jpeg", "png", "webp"], min_side: 300, max_side: 6000, min_aspect: 0.4, max_aspect: 2.5, max_bytes: 30 * MB };
export const VENDOR_B_SEEDANCE: InputLimits = {
  image: SEEDANCE_PICTURE,
  video: { formats: ["mp4", "mov"], min_seconds: 1.8, max_seconds: 15, max_bytes: 50 * MB },
  audio: { formats: ["mp3", "wav"], min_seconds: 1.8, max_seconds: 15, max_bytes: 15 * MB },
  total_seconds: { video: 15, audio: 15 },
};

// vendorC, Wan 2.7 (docs/providers/vendorC.md, vendorC-image.md; media bounds from the pages in input-limits.md):
// the prompt at most 5000 characters and the negative prompt 500; pictures JPEG, PNG or WebP of 240 to 8000 px a
// side and 1:8 to 8:1 (20 MB for the video models); driving audio WAV or MP3 of 2 to 30 s, at most 15 MB; a video
// to extend or edit MP4 or MOV of 2 to 10 s, 240 to 4096 px a side, at most 100 MB; a reference video 1 to 30 s.
const WAN_TEXT = { prompt: 5000, negative_prompt: 500 } as const;
const WAN_PICTURE: ImageInputLimits = { formats: ["jpeg", "png", "webp"], min_side: 240, max_side: 8000, min_aspect: 1 / 8, max_aspect: 8 };
const WAN_VIDEO_PICTURE: ImageInputLimits = { ...WAN_PICTURE, max_bytes: 20 * MB };
const WAN_SOURCE_VIDEO: VideoInputLimits = { formats: ["mp4", "mov"], min_seconds: 2, max_seconds: 10, min_side: 240, max_side: 4096, max_bytes: 100 * MB };
const WAN_DRIVING_AUDIO: AudioInputLimits = { formats: ["wav", "mp3"], min_seconds: 2, max_seconds: 30, max_bytes: 15 * MB };

export const VENDOR_C_WAN27_T2V: InputLimits = { audio: WAN_DRIVING_AUDIO, text: WAN_TEXT };
export const VENDOR_C_WAN27_I2V: InputLimits = { image: WAN_VIDEO_PICTURE, video: WAN_SOURCE_VIDEO, audio: WAN_DRIVING_AUDIO, text: { ...WAN_TEXT, instruction: 5000 } };
export const VENDOR_C_WAN27_R2V: InputLimits = { image: WAN_VIDEO_PICTURE, video: { ...WAN_SOURCE_VIDEO, min_seconds: 1, max_seconds: 30 }, text: WAN_TEXT };
export const VENDOR_C_WAN27_EDIT: InputLimits = { image: WAN_VIDEO_PICTURE, video: WAN_SOURCE_VIDEO, text: { ...WAN_TEXT, instruction: 5000 } };
export const VENDOR_C_WAN27_IMAGE: InputLimits = { image: WAN_PICTURE, text: WAN_TEXT };

// vendorD, Veo 3.1 (docs/providers/vendorD.md): pictures go inline as PNG, JPEG or WebP.
export const VENDOR_D_VEO: InputLimits = { image: { formats: ["png", "jpeg", "webp"] } };

// vendorE, Imagen 3 capability (Vertex AI's model page): an image sent in a request is at most 10 MB.
export const VENDOR_E_IMAGEN_CAPABILITY: InputLimits = { image: { max_bytes: 10 * MB } };
