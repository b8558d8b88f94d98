import { MUSIC_MODELS } from "../../audio-models.js";
import type { FamilyIds } from "../family-ids.js";

// Read from vendorG's Generate Music reference, whose `model` enum is V4, V4_5, V4_5PLUS, V4_5ALL, V5 and V5_5
// (docs/providers/vendorG.md). vendorG has no preset voices.
export const VENDOR_G_IDS: FamilyIds = {
  mapped: MUSIC_MODELS.filter((model) => model.family === "vendorG").map((model) => model.id),
  defaults: {
    models: {
      "vendorG-6": "V5",
    },
    voices: {},
  },
};
