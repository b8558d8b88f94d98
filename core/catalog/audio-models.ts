import { VENDOR_A_CLONE_SAMPLE, VENDOR_A_MUSIC_REFERENCE } from "./vendors/vendorA/input-limits.js";
import { VENDOR_G_REFERENCE } from "./vendors/vendorG/input-limits.js";
import type { CatalogModelBase } from "./model-types.js";

// Music and voice-clone models. Every bound a request is checked against at admission lives here, so the
// catalog card shows exactly what a rejection quotes.

export const MUSIC_TRACK_METER = "music_track";
export const VOICE_CLONE_METER = "voice_clone";

// Prompt and lyrics bounds of one music endpoint on one model.
export interface MusicTextLimits {
  max_prompt_characters: number;
  max_lyrics_characters: number;
}

// Reference-audio-to-music on one model: its text bounds. What the recording may be is the model's input limits
// (`input_limits.audio`), checked when its facts are known.
export type ReferenceAudioLimits = MusicTextLimits;

export interface VendorGMusicOptionLimits {
  max_negative_tags_characters: number;
  vocal_genders: readonly string[];
  style_weight: { min: number; max: number };
  weirdness_constraint: { min: number; max: number };
  audio_weight: { min: number; max: number };
}

// Each list's first entry is what the vendor uses when the request names none.
export interface VendorAMusicOptionLimits {
  audio_setting: { sample_rates: readonly number[]; bitrates: readonly number[]; formats: readonly string[] };
}

// The `model_options` groups a model honours, by family; a group it lacks is refused, never ignored.
export interface MusicModelOptionLimits {
  vendorA?: VendorAMusicOptionLimits;
  vendorG?: VendorGMusicOptionLimits;
}

export interface MusicConstraints {
  instrumental: boolean;
  max_title_characters: number;
  // Clips in `output.clips[]` of one successful task; all of them are covered by the one per-track price.
  clips_per_task: number;
  text_to_music: MusicTextLimits;
  reference_audio_to_music: ReferenceAudioLimits;
  model_options: MusicModelOptionLimits;
}

// What the sample may be is the model's input limits (`input_limits.audio`).
export interface VoiceCloneConstraints {
  // Primary language subtags accepted as the `language` hint.
  supported_languages: readonly string[];
  // The speech models a voice cloned by this model resolves on.
  voice_models: readonly string[];
  model_option_families: readonly string[];
}

export type MusicModel = CatalogModelBase<"music", MusicConstraints>;
export type VoiceCloneModel = CatalogModelBase<"voice_clone", VoiceCloneConstraints>;
export type AudioModel = MusicModel | VoiceCloneModel;

export const MUSIC_MODELS: readonly MusicModel[] = [
  {
    id: "vendorA-music-3.0",
    family: "vendorA",
    kind: "music",
    capabilities: ["text_to_music", "reference_audio_to_music"],
    created: 1_764_547_200,
    description: "Full songs with vocals from a style prompt and lyrics (or lyrics it writes); no instrumental-only mode.",
    constraints: {
      instrumental: false,
      max_title_characters: 120,
      clips_per_task: 1,
      text_to_music: { max_prompt_characters: 2000, max_lyrics_characters: 3000 },
      reference_audio_to_music: { max_prompt_characters: 1000, max_lyrics_characters: 3000 },
      model_options: {
        vendorA: {
          audio_setting: {
            sample_rates: [44100, 16000, 24000, 32000],
            bitrates: [256000, 32000, 64000, 128000],
            formats: ["mp3", "wav", "pcm"],
          },
        },
      },
    },
    input_limits: { audio: VENDOR_A_MUSIC_REFERENCE },
    prices: [
      { meter: MUSIC_TRACK_METER, unit: "track", microPerUnit: 150_000n, per: 1n },
      { meter: MUSIC_TRACK_METER, unit: "track", microPerUnit: 200_000n, per: 1n, when: { mode: "reference_audio" } },
    ],
  },
  {
    id: "vendorG-6",
    family: "vendorG",
    kind: "music",
    capabilities: ["text_to_music", "reference_audio_to_music"],
    created: 1_767_225_600,
    description: "Two variations per request, vocal or instrumental, with style, weirdness and reference-audio weighting.",
    constraints: {
      instrumental: true,
      max_title_characters: 80,
      clips_per_task: 2,
      // vendorG takes 500 characters of prompt without lyrics (its non-custom mode) and 1000 as a style in custom
      // mode; the prompt may go either way, so it is held to the shorter.
      text_to_music: { max_prompt_characters: 500, max_lyrics_characters: 5000 },
      reference_audio_to_music: { max_prompt_characters: 500, max_lyrics_characters: 5000 },
      model_options: {
        vendorG: {
          max_negative_tags_characters: 200,
          vocal_genders: ["m", "f"],
          style_weight: { min: 0, max: 1 },
          weirdness_constraint: { min: 0, max: 1 },
          audio_weight: { min: 0, max: 1 },
        },
      },
    },
    input_limits: { audio: VENDOR_G_REFERENCE },
    prices: [{ meter: MUSIC_TRACK_METER, unit: "track", microPerUnit: 100_000n, per: 1n }],
  },
];

export const VOICE_CLONE_MODELS: readonly VoiceCloneModel[] = [
  {
    id: "vendorA-voice-clone",
    family: "vendorA",
    kind: "voice_clone",
    capabilities: ["voice_clone"],
    created: 1_761_955_200,
    description: "Clones a voice from a 10 s to 5 min single-speaker sample for both vendorA speech models.",
    constraints: {
      supported_languages: ["zh", "yue", "en", "es", "fr", "ru", "de", "pt", "ar", "it", "ja", "ko", "id", "vi", "tr", "nl", "pl", "hi"],
      voice_models: ["vendorA-speech-2.8-hd", "vendorA-speech-2.8-turbo"],
      model_option_families: ["vendorA"],
    },
    input_limits: { audio: VENDOR_A_CLONE_SAMPLE },
    prices: [{ meter: VOICE_CLONE_METER, unit: "voice", microPerUnit: 3_000_000n, per: 1n }],
  },
];

export const AUDIO_MODELS: readonly AudioModel[] = [...MUSIC_MODELS, ...VOICE_CLONE_MODELS];
