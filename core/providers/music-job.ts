import { MUSIC_MODELS, type MusicModel } from "../catalog/audio-models.js";
import type { MusicSongInput } from "../capabilities/audio/music-rules.js";
import type { ProviderRequestOf } from "./served-capabilities.js";
import { ProviderFailure } from "./types.js";
import type { ResolvedMediaInput } from "./vendor-input.js";

// A text-to-music or reference-audio-to-music request as the music adapters see it: the song's controls, the
// selected model's catalog entry and, for reference audio, the recording as the worker resolved it (a signed
// URL of ours the vendor downloads). Admission checked every control against the model; the worker checked the
// recording's decoded length and format.

export type MusicCapability = "text_to_music" | "reference_audio_to_music";

export interface MusicJob extends MusicSongInput {
  capability: MusicCapability;
  model: MusicModel;
  reference: ResolvedMediaInput | null;
}

export function musicJob(request: ProviderRequestOf<MusicCapability>): MusicJob {
  const model = MUSIC_MODELS.find((m) => m.id === request.model);
  if (!model) throw new ProviderFailure("model_unavailable", `${request.model} cannot serve ${request.capability}`, false);
  // Resolved by the worker before submission; its absence is a bug on our side, failed rather than sent.
  const reference = request.capability === "reference_audio_to_music" ? (request.input.reference_audio ?? null) : null;
  if (request.capability === "reference_audio_to_music" && !reference?.url) {
    throw new ProviderFailure("model_request_failed", "the reference audio was not resolved before submission", false);
  }
  return { ...request.input, capability: request.capability, model, reference };
}
