import { MB, type AudioInputLimits, type ImageInputLimits, type InputLimits, type VideoInputLimits } from "../../input-limits.js";

// Wan 2.7 (docs/providers/vendorC.md, vendorC-image.md; media bounds from the pages in input-limits.md): the prompt
// at most 5000 characters and the negative prompt 500; pictures JPEG, PNG or WebP of 240 to 8000 px a side and 1:8
// to 8:1 (20 MB for the video models); driving audio WAV or MP3 of 2 to 30 s, at most 15 MB; a video to extend or
// edit MP4 or MOV of 2 to 10 s, 240 to 4096 px a side, at most 100 MB; a reference video 1 to 30 s.
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
