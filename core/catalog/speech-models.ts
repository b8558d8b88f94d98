import type { VendorFamily } from "../config.js";

export const SPEECH_FORMATS = ["mp3", "wav", "flac", "opus", "pcm"] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

export const SPEECH_LANGUAGES = [
  "zh", "yue", "en", "es", "fr", "ru", "de", "pt", "ar", "it", "ja", "ko", "id", "vi", "fa", "sv", "fil", "no", "ca",
  "ta", "tr", "nl", "uk", "th", "pl", "ro", "el", "cs", "fi", "hi", "bg", "da", "he", "ms", "sk", "hr", "hu", "sl",
  "nn", "af",
] as const;

export interface SpeechModel {
  id: string;
  family: VendorFamily;
  capability: "text_to_speech";
  created: number;
  description: string;
  supportedLanguages: readonly string[];
  formats: readonly SpeechFormat[];
  // Sample rates per format; the first listed is the default when the request names none.
  sampleRates: Readonly<Record<SpeechFormat, readonly number[]>>;
  emotions: readonly string[];
  pronunciationDict: boolean;
  maxInputCharacters: number;
  // Price per 1,000 weighted characters, in micro-credits.
  pricePer1kWeightedCharactersMicro: bigint;
}

const pcmRates = [32000, 8000, 16000, 22050, 24000, 44100, 48000] as const;
const opusRates = [48000, 8000, 16000, 24000] as const;

export const SPEECH_MODELS: readonly SpeechModel[] = [
  {
    id: "vendorA-speech-2.8-hd",
    family: "vendorA",
    capability: "text_to_speech",
    created: 1_761_955_200,
    description: "Studio-quality speech in 40 languages, every format and sample rate.",
    supportedLanguages: SPEECH_LANGUAGES,
    formats: SPEECH_FORMATS,
    sampleRates: { mp3: pcmRates, wav: pcmRates, flac: pcmRates, pcm: pcmRates, opus: opusRates },
    emotions: ["neutral", "happy", "sad", "angry", "fearful", "disgusted", "surprised", "calm"],
    pronunciationDict: true,
    maxInputCharacters: 50_000,
    pricePer1kWeightedCharactersMicro: 100_000n,
  },
  {
    id: "vendorA-speech-2.8-turbo",
    family: "vendorA",
    capability: "text_to_speech",
    created: 1_761_955_200,
    description: "Low-latency speech for the most common languages; no FLAC, at most 32 kHz.",
    supportedLanguages: ["zh", "yue", "en", "es", "fr", "ru", "de", "pt", "ar", "it", "ja", "ko", "id", "vi", "tr", "nl", "pl", "hi"],
    formats: ["mp3", "wav", "opus", "pcm"],
    sampleRates: {
      mp3: [32000, 8000, 16000, 22050, 24000],
      wav: [32000, 8000, 16000, 22050, 24000],
      flac: [],
      pcm: [32000, 8000, 16000, 22050, 24000],
      opus: [24000, 8000, 16000],
    },
    emotions: ["neutral", "happy", "sad"],
    pronunciationDict: false,
    maxInputCharacters: 50_000,
    pricePer1kWeightedCharactersMicro: 60_000n,
  },
];
