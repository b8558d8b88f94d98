import type { ProviderEndpoint } from "../../config.js";
import type { ImageCapability } from "../image-inputs.js";
import { servingAdapter, type CapabilityHandler } from "../served-capabilities.js";
import type { ProviderAdapter } from "../types.js";
import { cancelImageTask, createImageTask, readImageTask } from "./image-tasks.js";
import { cancelVisionTask, createVisionTask, readVisionTask } from "./vision-tasks.js";

// vendorF: image generation (with input images for image-to-image and edits) as image tasks, image understanding
// as vision tasks; both are followed by polling and can be canceled.
export function vendorFAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  const images = {
    submit: (request, signal) => createImageTask(endpoint, request, signal),
    poll: (ref, request, signal) => readImageTask(endpoint, ref, request, signal),
    cancel: (ref, _request, signal) => cancelImageTask(endpoint, ref, signal),
  } satisfies CapabilityHandler<ImageCapability>;
  return servingAdapter<ImageCapability | "image_to_text">("vendorF", { supportsCancel: true }, {
    text_to_image: images,
    image_to_image: images,
    image_edit: images,
    image_to_text: {
      submit: (request, signal) => createVisionTask(endpoint, request, signal),
      poll: (ref, _request, signal) => readVisionTask(endpoint, ref, signal),
      cancel: (ref, _request, signal) => cancelVisionTask(endpoint, ref, signal),
    },
  });
}
