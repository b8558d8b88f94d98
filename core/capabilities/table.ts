import { z } from "zod";
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

// Looked up on every task read (the envelope, the media plan), hence a map.
const BY_ID = new Map(CAPABILITIES.map((c) => [c.id, c]));

export function findCapability(id: string): Capability | undefined {
  return BY_ID.get(id);
}

// The schema a task's input was admitted by; a capability this build no longer has (a task older than the
// deployment) has no media fields known to it.
const UNKNOWN_INPUT = z.object({});
export function inputSchemaOf(id: string): z.ZodType {
  return findCapability(id)?.inputSchema ?? UNKNOWN_INPUT;
}
