import type { Timbre } from "../media/voice-timbre.js";

// The voices cloned at the emulated vendorA, by voice_id: the voice-clone route registers them, the speech route
// speaks with them. They live as long as the emulator does.
export class ClonedVoices {
  private readonly voices = new Map<string, Timbre>();

  // Cloning an id again replaces the voice, so a clone retried after a lost answer ends in the same place.
  register(voiceId: string, timbre: Timbre): void {
    this.voices.set(voiceId, timbre);
  }

  find(voiceId: string): Timbre | undefined {
    return this.voices.get(voiceId);
  }
}
