import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderAdapter } from "../types.js";
import { predictImages } from "./predict.js";

const IMAGE_CAPABILITIES = ["text_to_image", "image_to_image", "image_edit"];

// vendorE: Imagen on Vertex AI. Image generation, image-to-image and edits are one synchronous call each, so a
// running task cannot be stopped.
export function vendorEAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    family: "vendorE",
    supportsCancel: false,
    async submit(request, signal) {
      if (IMAGE_CAPABILITIES.includes(request.capability)) return predictImages(endpoint, request, signal);
      throw new ProviderFailure("model_unavailable", `${request.model} cannot run ${request.capability}: vendorE serves images only`, false);
    },
  };
}
