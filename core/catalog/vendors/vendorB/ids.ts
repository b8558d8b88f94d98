import { ENHANCEMENT_MODELS } from "../../understanding-models.js";
import { VIDEO_MODELS } from "../../video-models.js";
import type { FamilyIds } from "../family-ids.js";

// Read from BytePlus ModelArk's model list and video generation reference (docs/providers/vendorB.md): the
// Seedance 2.x ids its content generation tasks take, and the Seed chat model the prompt enhancer calls.
export const VENDOR_B_IDS: FamilyIds = {
  mapped: [...VIDEO_MODELS, ...ENHANCEMENT_MODELS].filter((model) => model.family === "vendorB").map((model) => model.id),
  defaults: {
    models: {
      "vendorB-2": "dreamina-seedance-2-0-260128",
      "vendorB-2-fast": "dreamina-seedance-2-0-fast-260128",
      "vendorB-2-mini": "dreamina-seedance-2-0-mini",
      "vendorB-2.5": "dreamina-seedance-2-5-260628",
      "vendorB-2-prompt-enhancer": "seed-2-0-pro-260328",
    },
    voices: {},
  },
};
