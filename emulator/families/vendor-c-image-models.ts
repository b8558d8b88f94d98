// What the emulated vendorC knows of its Wan 2.7 image models on its own (docs/providers/vendorC-image.md): their
// ids as Model Studio publishes them and the limits its image generation and editing call enforces. Nothing here
// comes from the service's catalog or its id map.

export interface WanImageModel {
  // The service's neutral id, which the emulator's control routes (scripted faults, the request log) name it by.
  controlName: string;
  // The largest named size the model renders from text alone; with input images or as a set, 2K at most.
  textToImageTier: "2K" | "4K";
}

export const WAN_IMAGE_MODELS: Readonly<Record<string, WanImageModel>> = {
  "wan2.7-image-pro": { controlName: "vendorC2.7-image-pro", textToImageTier: "4K" },
  "wan2.7-image": { controlName: "vendorC2.7-image", textToImageTier: "2K" },
};

export const WAN_IMAGE_LIMITS = {
  maxTextCharacters: 5000,
  maxNegativePromptCharacters: 500,
  maxInputImages: 9,
  // Images per task: 1 to 4, or 1 to 12 as a related set (enable_sequential).
  maxCount: 4,
  maxSequentialCount: 12,
  // The named sizes are squares of this side; a `W*H` size may hold as many pixels as the largest one allowed.
  tierSide: { "1K": 1024, "2K": 2048, "4K": 4096 },
  editTier: "2K",
  // Output and input pictures: width to height between 1:8 and 8:1. (The vendor also takes inputs of 240 to 8000 px
  // a side only; the emulator does not hold small inputs to that, so tests can use small pictures.)
  maxAspect: 8,
  maxSeed: 2_147_483_647,
} as const;

export function controlNameOf(vendorModel: string): string {
  return WAN_IMAGE_MODELS[vendorModel]?.controlName ?? vendorModel;
}
