import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderAdapter } from "../types.js";
import { cancelVendorDVideo, pollVendorDVideo, submitVendorDVideo } from "./video.js";

// vendorD: long-running video operations, cancellable. Text to video is served; image-, reference-to-video and
// edit need media inputs, which are not passed to vendors yet.
export function vendorDAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    family: "vendorD",
    supportsCancel: true,
    async submit(request, signal) {
      switch (request.capability) {
        case "text_to_video":
          return submitVendorDVideo(endpoint, request, signal);
        default:
          throw new ProviderFailure("model_unavailable", `vendorD cannot serve ${request.capability} yet: it needs media inputs`, false);
      }
    },
    poll: (ref, request, signal) => pollVendorDVideo(endpoint, ref, request, signal),
    cancel: (ref, _request, signal) => cancelVendorDVideo(endpoint, ref, signal),
  };
}
