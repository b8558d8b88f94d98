import type { Capability } from "../types.js";

// Image endpoints: generations, image-to-image, edits, responses (image understanding).
export const IMAGE_CAPABILITIES: readonly Capability[] = [];
