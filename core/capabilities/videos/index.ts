import type { Capability } from "../types.js";

// Video endpoints: text-, image-, frames- and reference-to-video, edit, extend, prompts/enhance, responses.
export const VIDEO_CAPABILITIES: readonly Capability[] = [];
