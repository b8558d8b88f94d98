import { AUDIO_MODELS } from "./audio-models.js";
import { IMAGE_MODELS } from "./image-models.js";
import type { CatalogModelBase, ModelKind } from "./model-types.js";
import { SPEECH_MODELS } from "./speech-models.js";
import { ENHANCEMENT_MODELS, UNDERSTANDING_MODELS } from "./understanding-models.js";
import { VIDEO_MODELS } from "./video-models.js";

export type AnyCatalogModel = CatalogModelBase<ModelKind, object>;

// Every model of the service, in one list: the catalog endpoints and docs/models.md read it.
export const ALL_MODELS: readonly AnyCatalogModel[] = [
  ...IMAGE_MODELS,
  ...VIDEO_MODELS,
  ...UNDERSTANDING_MODELS,
  ...ENHANCEMENT_MODELS,
  ...AUDIO_MODELS,
  ...SPEECH_MODELS,
];

export function findModel(id: string): AnyCatalogModel | undefined {
  return ALL_MODELS.find((m) => m.id === id);
}
