import type { CatalogModelBase } from "./model-types.js";

export type ImageModel = CatalogModelBase<"image", Record<string, unknown>>;
export const IMAGE_MODELS: readonly ImageModel[] = [];
