import { MB, type ImageInputLimits, type InputLimits } from "../../input-limits.js";

// Seedance 2.x (docs/providers/input-limits.md: third-party pages quoting the vendor's reference): pictures JPEG,
// PNG or WebP of 300 to 6000 px a side, aspect 0.4 to 2.5, under 30 MB; videos MP4 or MOV of at least 1.8 s, under
// 50 MB; audio MP3 or WAV of at least 1.8 s, at most 15 MB; each kind 15 s together. Frames, driving audio and a
// source video travel as the same content items, so the same bounds hold for them.
const SEEDANCE_PICTURE: ImageInputLimits = { formats: ["jpeg", "png", "webp"], min_side: 300, max_side: 6000, min_aspect: 0.4, max_aspect: 2.5, max_bytes: 30 * MB };
export const VENDOR_B_SEEDANCE: InputLimits = {
  image: SEEDANCE_PICTURE,
  video: { formats: ["mp4", "mov"], min_seconds: 1.8, max_seconds: 15, max_bytes: 50 * MB },
  audio: { formats: ["mp3", "wav"], min_seconds: 1.8, max_seconds: 15, max_bytes: 15 * MB },
  total_seconds: { video: 15, audio: 15 },
};
