// What the emulated vendorA knows on its own (docs/providers/vendorA.md, vendorA-image.md): the vendor's model
// ids and system voice ids as its references publish them, and the limits it enforces. Nothing here comes from
// the service's catalog or its id map, so the emulator disagrees with the service where the service is wrong
// about the vendor.

export const SPEECH_MODELS = ["speech-2.8-hd", "speech-2.8-turbo"] as const;
export const MUSIC_MODEL = "music-3.0";
export const MULTIMODAL_MODEL = "MiniMax-M3";
export const IMAGE_MODEL = "image-01-live";
export const VIDEO_MODEL = "MiniMax-H3";

// The system voices this stand-in speaks with (the vendor's list is longer:
// https://platform.minimax.io/docs/faq/system-voice-id); cloned voices are the others it knows.
export const SYSTEM_VOICES: ReadonlySet<string> = new Set([
  "English_Graceful_Lady",
  "English_expressive_narrator",
  "English_CalmWoman",
  "female-shaonv",
  "male-qn-qingse",
  "Calm_Woman",
  "Deep_Voice_Man",
  "Lively_Girl",
]);

// The name the emulator's control routes (scripted faults, the request log) give each vendor model: the service's
// neutral id, which tests script faults with. The vendor's calls never carry these; a call naming a model the
// vendor does not have is logged under the name it sent.
const CONTROL_NAMES: Readonly<Record<string, string>> = {
  "speech-2.8-hd": "vendorA-speech-2.8-hd",
  "speech-2.8-turbo": "vendorA-speech-2.8-turbo",
  [MUSIC_MODEL]: "vendorA-music-3.0",
  [MULTIMODAL_MODEL]: "vendorA-M3",
  [VIDEO_MODEL]: "vendorA-h3",
};

export function controlNameOf(vendorModel: string): string {
  return CONTROL_NAMES[vendorModel] ?? vendorModel;
}

// The multimodal model's reading limits as this stand-in enforces them.
export const MULTIMODAL_LIMITS = {
  maxImages: 8,
  maxVideoSeconds: 600,
  detailLevels: ["default", "low", "high"],
} as const;

// music_generation's bounds (the vendor's prompt and lyrics limits for music-3.0) and the reference-recording
// bounds of the emulator's reference mode.
export const MUSIC_LIMITS = {
  maxPromptCharacters: 2000,
  maxLyricsCharacters: 3500,
  reference: { maxPromptCharacters: 1000, minSeconds: 10, maxSeconds: 300, formats: ["mp3", "wav", "flac"] },
  sampleRates: [16000, 24000, 32000, 44100],
  bitrates: [32000, 64000, 128000, 256000],
} as const;

// Voice clone's sample bounds (the vendor's upload reference: mp3, m4a or wav, 10 s to 5 min, at most 20 MB).
export const CLONE_SAMPLE_LIMITS = { formats: ["mp3", "m4a", "wav"], minSeconds: 10, maxSeconds: 300, maxBytes: 20_000_000 } as const;
export const CLONE_CONTROL_NAME = "vendorA-voice-clone";

// Video Generation V2's bounds for MiniMax-H3 (the vendor's own client, MiniMax-AI/cli: src/video/v2.ts and
// skill/references/h3-video.md). Resolutions name the short side of the frame this stand-in renders.
export const VIDEO_LIMITS = {
  shortSide: { "768P": 768, "2K": 1440 },
  minSeconds: 4,
  maxSeconds: 15,
  ratios: ["adaptive", "21:9", "16:9", "4:3", "1:1", "3:4", "9:16"],
  maxTextCharacters: 7000,
  references: { image: 9, video: 3, audio: 3, total: 12 },
  referenceImage: { minSide: 256, maxSide: 5760, minAspect: 0.4, maxAspect: 2.5 },
  // Each reference video or audio lasts 2 to 15 s, and those of one kind 15 s together.
  referenceClip: { minSeconds: 2, maxSeconds: 15, maxTotalSeconds: 15 },
} as const;
