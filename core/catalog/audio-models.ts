import type { CatalogModelBase } from "./model-types.js";

// Music and voice-clone models.
export type AudioModel = CatalogModelBase<"music" | "voice_clone", Record<string, unknown>>;
export const AUDIO_MODELS: readonly AudioModel[] = [];
