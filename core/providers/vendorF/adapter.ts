import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderAdapter, type ProviderRequest } from "../types.js";
import { cancelImageTask, createImageTask, readImageTask } from "./image-tasks.js";

// vendorF: image generation as vendor tasks that are followed by polling and can be canceled. Image-to-image,
// edits and vendorF-vision need the caller's images handed to the vendor, which arrives with media input
// resolution.
export function vendorFAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  const servedHere = (request: ProviderRequest) => {
    if (request.capability !== "text_to_image") {
      throw new ProviderFailure(
        "model_unavailable",
        `${request.model} cannot run ${request.capability} here yet: vendorF serves text_to_image only`,
        false,
      );
    }
  };
  return {
    family: "vendorF",
    supportsCancel: true,
    async submit(request, signal) {
      servedHere(request);
      return createImageTask(endpoint, request, signal);
    },
    async poll(ref, request, signal) {
      servedHere(request);
      return readImageTask(endpoint, ref, request, signal);
    },
    async cancel(ref, _request, signal) {
      await cancelImageTask(endpoint, ref, signal);
    },
  };
}
