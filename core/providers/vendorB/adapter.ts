import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderAdapter } from "../types.js";
import { isVideoJobCapability } from "../video-job.js";
import { enhanceVendorBPrompt } from "./enhancer.js";
import { cancelVendorBVideo, pollVendorBVideo, submitVendorBVideo } from "./video.js";

// vendorB: video generation, edit and extension tasks (polled, cancellable) and the synchronous prompt enhancer.
export function vendorBAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    family: "vendorB",
    supportsCancel: true,
    async submit(request, signal) {
      if (isVideoJobCapability(request.capability)) return submitVendorBVideo(endpoint, request, signal);
      if (request.capability === "video_prompt_enhancement") return enhanceVendorBPrompt(endpoint, request, signal);
      throw new ProviderFailure("model_unavailable", `vendorB has no adapter for ${request.capability}`, false);
    },
    poll: (ref, request, signal) => pollVendorBVideo(endpoint, ref, request, signal),
    cancel: (ref, _request, signal) => cancelVendorBVideo(endpoint, ref, signal),
  };
}
