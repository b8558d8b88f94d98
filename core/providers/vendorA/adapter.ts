import type { ProviderEndpoint } from "../../config.js";
import type { ImageCapability } from "../image-inputs.js";
import type { MusicCapability } from "../music-job.js";
import { servingAdapter, type CapabilityHandler } from "../served-capabilities.js";
import type { ProviderAdapter } from "../types.js";
import { generateImages } from "./image.js";
import { generateVendorAMusic } from "./music.js";
import { answerAboutImages } from "./image-understanding.js";
import { synthesizeSpeech } from "./speech.js";
import { pollVendorAVideo, submitVendorAVideo, type VendorAVideoCapability } from "./video.js";
import { answerAboutVideo } from "./video-understanding.js";
import { cloneVendorAVoice } from "./voice-clone.js";

type Served = "text_to_speech" | ImageCapability | "image_to_text" | VendorAVideoCapability | "video_to_text" | MusicCapability | "voice_clone";

// vendorA: speech, music, voice clone, image-01-live images and M3 understanding answer synchronously; h3 video
// is polled and cannot be canceled. One file per call; this maps each capability to its call.
export function vendorAAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  const images = {
    submit: (request, signal) => generateImages(endpoint, request, signal),
  } satisfies CapabilityHandler<ImageCapability>;
  const video = {
    submit: (request, signal) => submitVendorAVideo(endpoint, request, signal),
    poll: (ref, request, signal) => pollVendorAVideo(endpoint, ref, request, signal),
  } satisfies CapabilityHandler<VendorAVideoCapability>;
  const music = {
    submit: (request, signal) => generateVendorAMusic(endpoint, request, signal),
  } satisfies CapabilityHandler<MusicCapability>;
  return servingAdapter<Served>("vendorA", { supportsCancel: false }, {
    text_to_speech: { submit: (request, signal) => synthesizeSpeech(endpoint, request, signal) },
    text_to_image: images,
    image_to_image: images,
    image_edit: images,
    image_to_text: { submit: (request, signal) => answerAboutImages(endpoint, request, signal) },
    text_to_video: video,
    image_to_video: video,
    frames_to_video: video,
    reference_to_video: video,
    video_to_text: { submit: (request, signal) => answerAboutVideo(endpoint, request, signal) },
    text_to_music: music,
    reference_audio_to_music: music,
    voice_clone: { submit: (request, signal) => cloneVendorAVoice(endpoint, request, signal) },
  });
}
