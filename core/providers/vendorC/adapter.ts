import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderAdapter } from "../types.js";
import { cancelImageSynthesis, pollImageSynthesis, submitImageSynthesis } from "./image.js";
import { pollVendorCVideo, submitVendorCVideo } from "./video.js";

const IMAGE_CAPABILITIES = ["text_to_image", "image_to_image", "image_edit"];

// vendorC: asynchronous synthesis tasks for images and video. A running task cannot be stopped at the vendor,
// so a cancel of a running vendorC task is 409.
export function vendorCAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    family: "vendorC",
    supportsCancel: false,
    async submit(request, signal) {
      switch (request.capability) {
        case "text_to_image":
        case "image_to_image":
        case "image_edit":
          return submitImageSynthesis(endpoint, request, signal);
        case "text_to_video":
        case "image_to_video":
        case "frames_to_video":
        case "reference_to_video":
        case "video_edit":
        case "video_extend":
          return submitVendorCVideo(endpoint, request, signal);
        default:
          throw new ProviderFailure("model_unavailable", `vendorC cannot serve ${request.capability} yet`, false);
      }
    },
    async poll(ref, request, signal) {
      if (IMAGE_CAPABILITIES.includes(request.capability)) return pollImageSynthesis(endpoint, ref, request, signal);
      return pollVendorCVideo(endpoint, ref, request, signal);
    },
    // Used when a deadline passes: image jobs still pending are withdrawn; video tasks have no cancel at all.
    async cancel(ref, request, signal) {
      if (IMAGE_CAPABILITIES.includes(request.capability)) await cancelImageSynthesis(endpoint, ref, request, signal);
    },
  };
}
