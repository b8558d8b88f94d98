import type { Capability } from "../types.js";
import { referenceAudioToMusicCapability } from "./reference-audio-to-music.js";
import { textToMusicCapability } from "./text-to-music.js";
import { voiceCloneCapability } from "./voice-clone.js";

// Music (text-to-music, reference-audio-to-music) and voice clone; speech lives in ../speech.ts.
export const AUDIO_CAPABILITIES: readonly Capability[] = [
  textToMusicCapability as unknown as Capability,
  referenceAudioToMusicCapability as unknown as Capability,
  voiceCloneCapability as unknown as Capability,
];
