import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderAdapter } from "../types.js";
import { isVideoJobCapability } from "../video-job.js";
import { cancelVendorDVideo, pollVendorDVideo, submitVendorDVideo } from "./video.js";

// vendorD: long-running video operations (generation from text, an image or references, and edits), cancellable.
export function vendorDAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    family: "vendorD",
    supportsCancel: true,
    async submit(request, signal) {
      if (isVideoJobCapability(request.capability)) return submitVendorDVideo(endpoint, request, signal);
      throw new ProviderFailure("model_unavailable", `vendorD has no adapter for ${request.capability}`, false);
    },
    poll: (ref, request, signal) => pollVendorDVideo(endpoint, ref, request, signal),
    cancel: (ref, _request, signal) => cancelVendorDVideo(endpoint, ref, signal),
  };
}
