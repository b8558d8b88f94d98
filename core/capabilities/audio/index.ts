import { referenceAudioToMusicCapability } from "./reference-audio-to-music.js";
import { textToMusicCapability } from "./text-to-music.js";
import { voiceCloneCapability } from "./voice-clone.js";

// Music (text-to-music, reference-audio-to-music) and voice clone; speech lives in ../speech.ts.
export const AUDIO_CAPABILITIES = [
  textToMusicCapability,
  referenceAudioToMusicCapability,
  voiceCloneCapability,
] as const;
