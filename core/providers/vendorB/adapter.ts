import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderAdapter } from "../types.js";
import { enhanceVendorBPrompt } from "./enhancer.js";
import { cancelVendorBVideo, pollVendorBVideo, submitVendorBVideo } from "./video.js";

// vendorB: text-to-video generation tasks (polled, cancellable) and the synchronous prompt enhancer. Its other
// video capabilities need media inputs, which are not passed to vendors yet.
export function vendorBAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    family: "vendorB",
    supportsCancel: true,
    async submit(request, signal) {
      switch (request.capability) {
        case "text_to_video":
          return submitVendorBVideo(endpoint, request, signal);
        case "video_prompt_enhancement":
          return enhanceVendorBPrompt(endpoint, request, signal);
        default:
          throw new ProviderFailure("model_unavailable", `vendorB cannot serve ${request.capability} yet: it needs media inputs`, false);
      }
    },
    poll: (ref, request, signal) => pollVendorBVideo(endpoint, ref, request, signal),
    cancel: (ref, _request, signal) => cancelVendorBVideo(endpoint, ref, signal),
  };
}
