import { speechCapability } from "./speech.js";
import type { Capability } from "./types.js";

// THE table: one entry per task-creating endpoint.
export const CAPABILITIES: readonly Capability[] = [speechCapability as unknown as Capability];

export function findCapability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}
