import { imageEditCapability } from "./edits.js";
import { imageGenerationCapability } from "./generations.js";
import { imageToImageCapability } from "./image-to-image.js";
import { imageUnderstandingCapability } from "./responses.js";

// Image endpoints: generations, image-to-image, edits, responses (image understanding).
export const IMAGE_CAPABILITIES = [
  imageGenerationCapability,
  imageToImageCapability,
  imageEditCapability,
  imageUnderstandingCapability,
] as const;
