// Preset voices, available to every tenant. Cloned voices (issue: voice clone) live in the database.
export interface PresetVoice {
  voiceId: string;
  name: string;
  language: string;
  gender: "female" | "male" | "neutral";
  models: readonly string[];
}

const BOTH = ["vendorA-speech-2.8-hd", "vendorA-speech-2.8-turbo"] as const;
const HD_ONLY = ["vendorA-speech-2.8-hd"] as const;

export const PRESET_VOICES: readonly PresetVoice[] = [
  { voiceId: "en_female_aria", name: "Aria", language: "en", gender: "female", models: BOTH },
  { voiceId: "en_male_atlas", name: "Atlas", language: "en", gender: "male", models: BOTH },
  { voiceId: "en_neutral_sage", name: "Sage", language: "en", gender: "neutral", models: HD_ONLY },
  { voiceId: "zh_female_lan", name: "Lan", language: "zh", gender: "female", models: BOTH },
  { voiceId: "zh_male_narrator", name: "Narrator", language: "zh", gender: "male", models: HD_ONLY },
  { voiceId: "es_female_lucia", name: "Lucía", language: "es", gender: "female", models: BOTH },
  { voiceId: "fr_male_henri", name: "Henri", language: "fr", gender: "male", models: BOTH },
  { voiceId: "ja_female_hana", name: "Hana", language: "ja", gender: "female", models: HD_ONLY },
];

export function findPresetVoice(voiceId: string): PresetVoice | undefined {
  return PRESET_VOICES.find((v) => v.voiceId === voiceId);
}
