import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderAdapter, type ProviderRequest } from "../types.js";
import { cancelImageTask, createImageTask, readImageTask } from "./image-tasks.js";
import { cancelVisionTask, createVisionTask, readVisionTask } from "./vision-tasks.js";

const IMAGE_CAPABILITIES = ["text_to_image", "image_to_image", "image_edit"];

// vendorF: image generation (with input images for image-to-image and edits) as image tasks, image understanding
// as vision tasks; both are followed by polling and can be canceled.
export function vendorFAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  const isVision = (request: ProviderRequest) => {
    if (request.capability === "image_to_text") return true;
    if (IMAGE_CAPABILITIES.includes(request.capability)) return false;
    throw new ProviderFailure("model_unavailable", `${request.model} cannot run ${request.capability}: vendorF serves images only`, false);
  };
  return {
    family: "vendorF",
    supportsCancel: true,
    async submit(request, signal) {
      return isVision(request) ? createVisionTask(endpoint, request, signal) : createImageTask(endpoint, request, signal);
    },
    async poll(ref, request, signal) {
      return isVision(request) ? readVisionTask(endpoint, ref, signal) : readImageTask(endpoint, ref, request, signal);
    },
    async cancel(ref, request, signal) {
      await (isVision(request) ? cancelVisionTask(endpoint, ref, signal) : cancelImageTask(endpoint, ref, signal));
    },
  };
}
