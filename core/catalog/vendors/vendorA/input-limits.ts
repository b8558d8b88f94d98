import { MB, MIB, type AudioInputLimits, type ImageInputLimits, type InputLimits } from "../../input-limits.js";

// MiniMax-H3 (Video Generation V2): every picture (frames and reference images) JPEG, PNG or WebP with sides of 256
// to 5760 px and an aspect of 0.4 to 2.5; reference videos MP4 or MOV in H.264 or H.265 of 2 to 15 s at 23.976 to
// 60 fps; the references of one kind 15 s together; the text at most 7000 characters.
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

// image-01-live: a prompt of at most 1500 characters.
export const VENDOR_A_IMAGE: InputLimits = { text: { prompt: 1500 } };

// Voice clone: the uploaded sample is mp3, m4a or wav, 10 s to 5 min, at most 20 MB.
export const VENDOR_A_CLONE_SAMPLE: AudioInputLimits = { formats: ["mp3", "m4a", "wav"], min_seconds: 10, max_seconds: 300, max_bytes: 20 * MB };

// music-3.0 with a reference recording (the service's reference mode; the vendor publishes no recording bounds of
// its own, docs/providers/vendorA.md "Music"): mp3, wav or flac of 10 s to 5 min, at most 20 MiB.
export const VENDOR_A_MUSIC_REFERENCE: AudioInputLimits = { formats: ["mp3", "wav", "flac"], min_seconds: 10, max_seconds: 300, max_bytes: 20 * MIB };
