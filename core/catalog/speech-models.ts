import { NO_PUBLISHED_LIMITS } from "./input-limits.js";
import type { CatalogModelBase } from "./model-types.js";

export const SPEECH_FORMATS = ["mp3", "wav", "flac", "opus", "pcm"] as const;

// SPEC.md's Limits: a speech input is 1 to 50000 characters. The request schema holds every request to it, and each
// speech model takes the whole of it (long inputs are spoken in parts where the vendor's call takes less).
export const SPEECH_INPUT_MAX_CHARACTERS = 50_000;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

export const SPEECH_LANGUAGES = [
  "zh", "yue", "en", "es", "fr", "ru", "de", "pt", "ar", "it", "ja", "ko", "id", "vi", "fa", "sv", "fil", "no", "ca",
  "ta", "tr", "nl", "uk", "th", "pl", "ro", "el", "cs", "fi", "hi", "bg", "da", "he", "ms", "sk", "hr", "hu", "sl",
  "nn", "af",
] as const;

export interface SpeechConstraints {
  supported_languages: readonly string[];
  formats: readonly SpeechFormat[];
  // Sample rates per format; the first listed is the default when the request names none.
  sample_rates: Readonly<Record<SpeechFormat, readonly number[]>>;
  emotions: readonly string[];
  pronunciation_dict: boolean;
  max_input_characters: number;
}

export type SpeechModel = CatalogModelBase<"speech", SpeechConstraints>;

export const SPEECH_METER = "speech_weighted_characters";

// The rates vendorA's T2A v2 makes (docs/providers/vendorA.md): nothing above 44.1 kHz. Opus, which the vendor does
// not make, is encoded by the service from the vendor's WAV at Opus's own rates.
const pcmRates = [32000, 8000, 16000, 22050, 24000, 44100] as const;
const opusRates = [48000, 8000, 16000, 24000] as const;

export const SPEECH_MODELS: readonly SpeechModel[] = [
  {
    id: "vendorA-speech-2.8-hd",
    family: "vendorA",
    kind: "speech",
    capabilities: ["text_to_speech"],
    created: 1_761_955_200,
    description: "Studio-quality speech in 40 languages, in every format, at up to 44.1 kHz (Opus at 48 kHz).",
    constraints: {
      supported_languages: SPEECH_LANGUAGES,
      formats: SPEECH_FORMATS,
      sample_rates: { mp3: pcmRates, wav: pcmRates, flac: pcmRates, pcm: pcmRates, opus: opusRates },
      emotions: ["neutral", "happy", "sad", "angry", "fearful", "disgusted", "surprised", "calm"],
      pronunciation_dict: true,
      max_input_characters: SPEECH_INPUT_MAX_CHARACTERS,
    },
    input_limits: NO_PUBLISHED_LIMITS,
    prices: [{ meter: SPEECH_METER, unit: "character", microPerUnit: 100_000n, per: 1000n }],
  },
  {
    id: "vendorA-speech-2.8-turbo",
    family: "vendorA",
    kind: "speech",
    capabilities: ["text_to_speech"],
    created: 1_761_955_200,
    description: "Low-latency speech for the most common languages; no FLAC, at most 32 kHz.",
    constraints: {
      supported_languages: ["zh", "yue", "en", "es", "fr", "ru", "de", "pt", "ar", "it", "ja", "ko", "id", "vi", "tr", "nl", "pl", "hi"],
      formats: ["mp3", "wav", "opus", "pcm"],
      sample_rates: {
        mp3: [32000, 8000, 16000, 22050, 24000],
        wav: [32000, 8000, 16000, 22050, 24000],
        flac: [],
        pcm: [32000, 8000, 16000, 22050, 24000],
        opus: [24000, 8000, 16000],
      },
      emotions: ["neutral", "happy", "sad"],
      pronunciation_dict: false,
      max_input_characters: SPEECH_INPUT_MAX_CHARACTERS,
    },
    input_limits: NO_PUBLISHED_LIMITS,
    prices: [{ meter: SPEECH_METER, unit: "character", microPerUnit: 60_000n, per: 1000n }],
  },
];
