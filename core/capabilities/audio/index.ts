import type { Capability } from "../types.js";

// Music (text-to-music, reference-audio-to-music) and voice clone; speech lives in ../speech.ts.
export const AUDIO_CAPABILITIES: readonly Capability[] = [];
