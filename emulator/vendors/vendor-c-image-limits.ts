import type { VendorImageModel } from "./image-model.js";

// The image models the emulated vendorC serves under the ids its image calls send today. Those calls have not
// been brought to Model Studio's Wan 2.7 image reference yet (docs/providers/vendorC-image.md), so these are the
// limits its image protocol states until they are.

const COMMON_ASPECTS = ["1:1", "16:9", "9:16", "4:3", "3:4"];

export const VENDOR_C_IMAGE_MODELS: readonly VendorImageModel[] = [
  {
    id: "vendorC2.7-image-pro",
    counts: [1, 2, 4],
    tiers: ["2K", "4K"],
    aspects: [...COMMON_ASPECTS, "21:9"],
    sourceRatio: true,
    sequence: true,
    palette: false,
    seed: true,
    negativePrompt: true,
    maxInputImages: 4,
    maxEditRegions: 8,
  },
  {
    id: "vendorC2.7-image",
    counts: [1, 2, 4],
    tiers: ["1K", "2K"],
    aspects: COMMON_ASPECTS,
    sourceRatio: true,
    sequence: false,
    palette: false,
    seed: true,
    negativePrompt: true,
    maxInputImages: 3,
    maxEditRegions: 1,
  },
];
