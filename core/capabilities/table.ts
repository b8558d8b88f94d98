import { z } from "zod";
import type { CommonCreateInput } from "../contracts/common-create.js";
import { AUDIO_CAPABILITIES } from "./audio/index.js";
import { IMAGE_CAPABILITIES } from "./images/index.js";
import { speechCapability } from "./speech.js";
import type { Capability } from "./types.js";
import { VIDEO_CAPABILITIES } from "./videos/index.js";

const ENTRIES = [...IMAGE_CAPABILITIES, ...VIDEO_CAPABILITIES, ...AUDIO_CAPABILITIES, speechCapability] as const;

// One entry of the table as defined, with its literal id and its schema's input.
type CapabilityEntry = (typeof ENTRIES)[number];
export type CapabilityId = CapabilityEntry["id"];
// The input an entry's schema admits (defaults filled in), by id.
export type CapabilityInputOf<Id extends CapabilityId> = z.output<Extract<CapabilityEntry, { id: Id }>["inputSchema"]>;
// An entry as code common to every capability sees it.
export type AnyCapability = Capability<CommonCreateInput, CapabilityId>;

// THE table: one entry per task-creating endpoint. Routes, tools, validation, catalog and OpenAPI derive from it.
export const CAPABILITIES: readonly AnyCapability[] = ENTRIES;

// Looked up on every task read (the envelope, the media plan), hence a map.
const BY_ID = new Map<string, AnyCapability>(CAPABILITIES.map((c) => [c.id, c]));

export function findCapability(id: string): AnyCapability | undefined {
  return BY_ID.get(id);
}

// The schema a task's input was admitted by; a capability this build no longer has (a task older than the
// deployment) has no media fields known to it.
const UNKNOWN_INPUT = z.object({});
export function inputSchemaOf(id: string): z.ZodType {
  return findCapability(id)?.inputSchema ?? UNKNOWN_INPUT;
}
