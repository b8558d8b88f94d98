import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderAdapter } from "../types.js";
import { generateImages } from "./image.js";
import { synthesizeSpeech } from "./speech.js";
import { pollVendorAVideo, submitVendorAVideo } from "./video.js";

// vendorA: speech (synchronous) and text to video (polled, not cancellable). Its other capabilities arrive with
// their own files.
export function vendorAAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    family: "vendorA",
    supportsCancel: false,
    async submit(request, signal) {
      switch (request.capability) {
        case "text_to_speech":
          return synthesizeSpeech(endpoint, request, signal);
        case "text_to_image":
          return generateImages(endpoint, request, signal);
        case "text_to_video":
          return submitVendorAVideo(endpoint, request, signal);
        default:
          throw new ProviderFailure("model_unavailable", `vendorA has no adapter for ${request.capability} yet`, false);
      }
    },
    async poll(ref, request, signal) {
      if (request.capability === "text_to_video") return pollVendorAVideo(endpoint, ref, request, signal);
      throw new ProviderFailure("model_request_failed", `vendorA has no ${request.capability} jobs to follow`, false);
    },
  };
}
