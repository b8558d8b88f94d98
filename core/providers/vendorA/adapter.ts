import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderAdapter } from "../types.js";
import { generateImages } from "./image.js";
import { generateVendorAMusic } from "./music.js";
import { answerAboutImages } from "./image-understanding.js";
import { synthesizeSpeech } from "./speech.js";
import { isVideoJobCapability } from "../video-job.js";
import { pollVendorAVideo, submitVendorAVideo } from "./video.js";
import { answerAboutVideo } from "./video-understanding.js";
import { cloneVendorAVoice } from "./voice-clone.js";

// vendorA: speech, music, voice clone, image-01-live images and M3 understanding answer synchronously; h3 video
// is polled and cannot be canceled. One file per call; this dispatches by capability.
export function vendorAAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    family: "vendorA",
    supportsCancel: false,
    async submit(request, signal) {
      switch (request.capability) {
        case "text_to_speech":
          return synthesizeSpeech(endpoint, request, signal);
        case "text_to_image":
        case "image_to_image":
        case "image_edit":
          return generateImages(endpoint, request, signal);
        case "image_to_text":
          return answerAboutImages(endpoint, request, signal);
        case "text_to_video":
        case "image_to_video":
        case "frames_to_video":
        case "reference_to_video":
          return submitVendorAVideo(endpoint, request, signal);
        case "video_to_text":
          return answerAboutVideo(endpoint, request, signal);
        case "text_to_music":
        case "reference_audio_to_music":
          return generateVendorAMusic(endpoint, request, signal);
        case "voice_clone":
          return cloneVendorAVoice(endpoint, request, signal);
        default:
          throw new ProviderFailure("model_unavailable", `vendorA has no adapter for ${request.capability} yet`, false);
      }
    },
    async poll(ref, request, signal) {
      if (isVideoJobCapability(request.capability)) return pollVendorAVideo(endpoint, ref, request, signal);
      throw new ProviderFailure("model_request_failed", `vendorA has no ${request.capability} jobs to follow`, false);
    },
  };
}
