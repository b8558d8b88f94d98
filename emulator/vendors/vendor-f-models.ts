import type { VendorImageModel } from "./image-model.js";

// vendorF's models as its protocol describes them (docs/providers/vendorF.md). The protocol matches no published
// vendor API, so these limits are the ones that document states; the model ids are the ones its calls send.

const WIDE_ASPECTS = ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "21:9"];
const COMMON_ASPECTS = ["1:1", "16:9", "9:16", "4:3", "3:4"];
const BASIC_ASPECTS = ["1:1", "16:9", "9:16"];
const PLAIN: Omit<VendorImageModel, "id"> = {
  counts: [1],
  tiers: ["2K"],
  aspects: BASIC_ASPECTS,
  sourceRatio: true,
  sequence: false,
  palette: false,
  seed: false,
  negativePrompt: false,
  maxInputImages: 1,
  maxEditRegions: 0,
};

export const VENDOR_F_IMAGE_MODELS: readonly VendorImageModel[] = [
  {
    ...PLAIN,
    id: "vendorF-image-3.0-pro",
    counts: [1, 2, 3, 4],
    tiers: ["2K", "4K"],
    aspects: WIDE_ASPECTS,
    sequence: true,
    palette: true,
    seed: true,
    maxInputImages: 6,
    maxEditRegions: 4,
  },
  { ...PLAIN, id: "vendorF-image-3.0", counts: [1, 2, 3, 4], tiers: ["1K", "2K"], aspects: COMMON_ASPECTS, palette: true, seed: true, maxInputImages: 4 },
  { ...PLAIN, id: "vendorF-image-2.0-pro", negativePrompt: true, maxInputImages: 2, maxEditRegions: 2 },
  { ...PLAIN, id: "vendorF-image-2.0", tiers: ["1K", "2K"], seed: true },
];

export interface VendorFVisionModel {
  id: string;
  maxImages: number;
  detailLevels: readonly string[];
  temperature: { min: number; max: number };
}

export const VENDOR_F_VISION_MODELS: readonly VendorFVisionModel[] = [
  { id: "vendorF-vision-2.0", maxImages: 4, detailLevels: ["default", "low"], temperature: { min: 0, max: 1 } },
];
