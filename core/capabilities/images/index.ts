import type { Capability } from "../types.js";
import { imageEditCapability } from "./edits.js";
import { imageGenerationCapability } from "./generations.js";
import { imageToImageCapability } from "./image-to-image.js";
import { imageUnderstandingCapability } from "./responses.js";

// Image endpoints: generations, image-to-image, edits, responses (image understanding).
export const IMAGE_CAPABILITIES: readonly Capability[] = [
  imageGenerationCapability as unknown as Capability,
  imageToImageCapability as unknown as Capability,
  imageEditCapability as unknown as Capability,
  imageUnderstandingCapability as unknown as Capability,
];
