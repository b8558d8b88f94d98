import { canvasPixelSize, sourceAspect, type PixelSize } from "../../core/catalog/canvas.js";
import { IMAGE_MODELS, type ImageModel } from "../../core/catalog/image-models.js";

// What each emulated image model accepts. The vendors document these limits and our catalog records them, so
// the emulator reads the catalog rather than keep a second copy that could drift from it.

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

export function findImageModel(family: string, id: string): ImageModel | undefined {
  return IMAGE_MODELS.find((model) => model.family === family && model.id === id);
}

// The pixel sizes a model renders: every tier it offers at every ratio it offers.
export function offeredSizes(model: ImageModel): PixelSize[] {
  return model.constraints.canvas_tiers.flatMap((tier) =>
    model.constraints.canvas_aspects.filter((aspect) => aspect !== "source").map((aspect) => canvasPixelSize(tier, aspect)),
  );
}

// With input images, a model offering `source` also renders each of its tiers at the source image's ratio.
function sourceSizes(model: ImageModel, source: PixelSize | undefined): PixelSize[] {
  if (source === undefined || !model.constraints.canvas_aspects.includes("source")) return [];
  return model.constraints.canvas_tiers.map((tier) => canvasPixelSize(tier, sourceAspect(source)));
}

// The first thing the model cannot do, in the vendor's words, or null.
export function imageAskProblem(model: ImageModel, ask: ImageAsk): string | null {
  const limits = model.constraints;
  if (!limits.counts.includes(ask.count)) return `${model.id} generates ${limits.counts.join(", ")} images per request, not ${ask.count}`;
  const sizes = [...offeredSizes(model), ...sourceSizes(model, ask.source)];
  if (!sizes.some((size) => size.width === ask.size.width && size.height === ask.size.height)) {
    return `${model.id} does not render ${ask.size.width}x${ask.size.height}`;
  }
  if (ask.sequence && !limits.output_relationships.includes("sequence")) return `${model.id} cannot generate related sequences`;
  if (ask.palette && !limits.palette) return `${model.id} does not accept a color palette`;
  if (ask.seed && !limits.seed) return `${model.id} does not accept a seed`;
  if (ask.negativePrompt && !limits.negative_prompt) return `${model.id} does not accept a negative prompt`;
  if ((ask.inputImages ?? 0) > limits.max_input_images) return `${model.id} takes at most ${limits.max_input_images} input images`;
  if ((ask.editRegions ?? 0) > limits.max_edit_regions) return `${model.id} edits at most ${limits.max_edit_regions} regions`;
  return null;
}

// A seed the caller did not fix: every request then gets pictures of its own.
export function randomSeed(): number {
  return Math.floor(Math.random() * 2_147_483_647);
}
