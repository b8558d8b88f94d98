import { AUDIO_CAPABILITIES } from "./audio/index.js";
import { IMAGE_CAPABILITIES } from "./images/index.js";
import { speechCapability } from "./speech.js";
import type { Capability } from "./types.js";
import { VIDEO_CAPABILITIES } from "./videos/index.js";

// THE table: one entry per task-creating endpoint. Routes, tools, validation, catalog and OpenAPI derive from it.
export const CAPABILITIES: readonly Capability[] = [
  ...IMAGE_CAPABILITIES,
  ...VIDEO_CAPABILITIES,
  ...AUDIO_CAPABILITIES,
  speechCapability as unknown as Capability,
];

export function findCapability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}
