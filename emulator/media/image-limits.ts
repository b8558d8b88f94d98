import type { VendorImageModel } from "../vendors/image-model.js";
import { IMAGEN_MODELS } from "../vendors/vendor-e-models.js";
import { VENDOR_F_IMAGE_MODELS } from "../vendors/vendor-f-models.js";
import { canvasPixelSize, sourceAspect, type PixelSize } from "./canvas-size.js";

// What each emulated image model accepts, from the emulator's own description of each vendor (emulator/vendors/),
// never from the service's catalog: a catalog that promises more than the vendor takes is then refused here.

export type { VendorImageModel } from "../vendors/image-model.js";

export interface ImageAsk {
  count: number;
  size: PixelSize;
  sequence: boolean;
  palette: boolean;
  seed: boolean;
  negativePrompt: boolean;
  // Image-to-image and edits: the input image whose ratio the canvas may keep (`source`), how many input images
  // came and how many edit regions.
  source?: PixelSize;
  inputImages?: number;
  editRegions?: number;
}

const IMAGE_MODELS: Readonly<Record<string, readonly VendorImageModel[]>> = {
  vendorE: IMAGEN_MODELS,
  vendorF: VENDOR_F_IMAGE_MODELS,
};

export function findImageModel(family: string, id: string): VendorImageModel | undefined {
  return IMAGE_MODELS[family]?.find((model) => model.id === id);
}

// The pixel sizes a model renders: every tier it offers at every ratio it offers.
export function offeredSizes(model: VendorImageModel): PixelSize[] {
  return model.tiers.flatMap((tier) => model.aspects.map((aspect) => canvasPixelSize(tier, aspect)));
}

// With input images, a model that follows the source also renders each of its tiers at the source image's ratio.
function sourceSizes(model: VendorImageModel, source: PixelSize | undefined): PixelSize[] {
  if (source === undefined || !model.sourceRatio) return [];
  return model.tiers.map((tier) => canvasPixelSize(tier, sourceAspect(source)));
}

// The first thing the model cannot do, in the vendor's words, or null.
export function imageAskProblem(model: VendorImageModel, ask: ImageAsk): string | null {
  if (!model.counts.includes(ask.count)) return `${model.id} generates ${model.counts.join(", ")} images per request, not ${ask.count}`;
  const sizes = [...offeredSizes(model), ...sourceSizes(model, ask.source)];
  if (!sizes.some((size) => size.width === ask.size.width && size.height === ask.size.height)) {
    return `${model.id} does not render ${ask.size.width}x${ask.size.height}`;
  }
  if (ask.sequence && !model.sequence) return `${model.id} cannot generate related sequences`;
  if (ask.palette && !model.palette) return `${model.id} does not accept a color palette`;
  if (ask.seed && !model.seed) return `${model.id} does not accept a seed`;
  if (ask.negativePrompt && !model.negativePrompt) return `${model.id} does not accept a negative prompt`;
  if ((ask.inputImages ?? 0) > model.maxInputImages) return `${model.id} takes at most ${model.maxInputImages} input images`;
  if ((ask.editRegions ?? 0) > model.maxEditRegions) return `${model.id} edits at most ${model.maxEditRegions} regions`;
  return null;
}

// A seed the caller did not fix: every request then gets pictures of its own.
export function randomSeed(): number {
  return Math.floor(Math.random() * 2_147_483_647);
}
