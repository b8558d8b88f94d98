import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderAdapter } from "../types.js";
import { isVideoJobCapability } from "../video-job.js";
import { pollVendorDVideo, submitVendorDVideo } from "./video.js";

// vendorD: the Gemini API's Veo long-running video operations (generation from text, an image or references,
// and edits). The reference has no cancel for them: once submitted, the vendor renders the clip to the end, so a
// running task cannot be stopped (cancel answers 409) and one past its deadline is abandoned.
export function vendorDAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    family: "vendorD",
    supportsCancel: false,
    async submit(request, signal) {
      if (isVideoJobCapability(request.capability)) return submitVendorDVideo(endpoint, request, signal);
      throw new ProviderFailure("model_unavailable", `vendorD has no adapter for ${request.capability}`, false);
    },
    poll: (ref, request, signal) => pollVendorDVideo(endpoint, ref, request, signal),
  };
}
