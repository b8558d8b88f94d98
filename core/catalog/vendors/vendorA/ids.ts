import type { FamilyIds } from "../family-ids.js";

// Read from vendorA's references (docs/providers/vendorA.md, vendorA-image.md): T2A v2 and its system-voice
// list, music_generation, image_generation, the OpenAI-compatible chat completions and Video Generation V2.
//
// Not mapped, so not checked at start: vendorA-voice-clone, whose calls send no model of its own (the clone call
// names the demonstration's speech model, mapped above).
export const VENDOR_A_IDS: FamilyIds = {
  mapped: ["vendorA-speech-2.8-hd", "vendorA-speech-2.8-turbo", "vendorA-music-3.0", "image-01-live", "vendorA-M3", "vendorA-h3"],
  defaults: {
    models: {
      "vendorA-speech-2.8-hd": "speech-2.8-hd",
      "vendorA-speech-2.8-turbo": "speech-2.8-turbo",
      "vendorA-music-3.0": "music-3.0",
      "image-01-live": "image-01-live",
      "vendorA-M3": "MiniMax-M3",
      "vendorA-h3": "MiniMax-H3",
    },
    voices: {
      en_female_aria: "English_Graceful_Lady",
      en_male_atlas: "English_expressive_narrator",
      en_neutral_sage: "English_CalmWoman",
      zh_female_lan: "female-shaonv",
      zh_male_narrator: "male-qn-qingse",
      es_female_lucia: "Calm_Woman",
      fr_male_henri: "Deep_Voice_Man",
      ja_female_hana: "Lively_Girl",
    },
  },
};
