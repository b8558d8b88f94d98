import { SPEECH_MODELS } from "../speech-models.js";
import type { FamilyIds } from "./family-ids.js";

// Read from vendorA's T2A v2 reference and its system-voice list (docs/providers/vendorA.md).
export const VENDOR_A_IDS: FamilyIds = {
  mapped: SPEECH_MODELS.filter((model) => model.family === "vendorA").map((model) => model.id),
  defaults: {
    models: {
      "vendorA-speech-2.8-hd": "speech-2.8-hd",
      "vendorA-speech-2.8-turbo": "speech-2.8-turbo",
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
