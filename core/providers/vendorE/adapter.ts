import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderAdapter } from "../types.js";
import { predictImages } from "./predict.js";

// vendorE: image generation, synchronous, so a running task cannot be stopped. Image-to-image and edits need the
// caller's images handed to the vendor, which arrives with media input resolution.
export function vendorEAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    family: "vendorE",
    supportsCancel: false,
    async submit(request, signal) {
      if (request.capability === "text_to_image") return predictImages(endpoint, request, signal);
      throw new ProviderFailure(
        "model_unavailable",
        `${request.model} cannot run ${request.capability} here yet: vendorE serves text_to_image only`,
        false,
      );
    },
  };
}
