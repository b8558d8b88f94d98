import type { CatalogModelBase } from "./model-types.js";

export type VideoModel = CatalogModelBase<"video", Record<string, unknown>>;
export const VIDEO_MODELS: readonly VideoModel[] = [];
