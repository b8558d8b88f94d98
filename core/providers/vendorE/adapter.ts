import type { ProviderEndpoint } from "../../config.js";
import type { ImageCapability } from "../image-inputs.js";
import { servingAdapter, type CapabilityHandler } from "../served-capabilities.js";
import type { ProviderAdapter } from "../types.js";
import { predictImages } from "./predict.js";

// vendorE: Imagen on Vertex AI. Image generation, image-to-image and edits are one synchronous call each, so a
// running task cannot be stopped.
export function vendorEAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  const images = {
    submit: (request, signal) => predictImages(endpoint, request, signal),
  } satisfies CapabilityHandler<ImageCapability>;
  return servingAdapter<ImageCapability>("vendorE", { supportsCancel: false }, { text_to_image: images, image_to_image: images, image_edit: images });
}
