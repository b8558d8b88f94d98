import { MUSIC_MODELS, type MusicModel } from "../catalog/audio-models.js";
import type { MusicSongInput } from "../capabilities/audio/music-rules.js";
import { ProviderFailure, type ProviderRequest } from "./types.js";
import type { ResolvedMediaInput } from "./video-job.js";

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

export function isMusicCapability(capability: string): capability is MusicCapability {
  return capability === "text_to_music" || capability === "reference_audio_to_music";
}

export function musicJob(request: ProviderRequest): MusicJob {
  const model = MUSIC_MODELS.find((m) => m.id === request.model);
  if (!isMusicCapability(request.capability) || !model) {
    throw new ProviderFailure("model_unavailable", `${request.model} cannot serve ${request.capability}`, false);
  }
  const input = request.input as unknown as MusicSongInput & { reference_audio?: ResolvedMediaInput };
  const reference = request.capability === "reference_audio_to_music" ? (input.reference_audio ?? null) : null;
  if (request.capability === "reference_audio_to_music" && !reference?.url) {
    throw new ProviderFailure("model_request_failed", "the reference audio was not resolved before submission", false);
  }
  return { ...input, capability: request.capability, model, reference };
}
