import { VIDEO_MODELS } from "../../video-models.js";
import type { FamilyIds } from "../family-ids.js";

// Read from the Gemini API's Veo video guide (docs/providers/vendorD.md): one Veo model generates from text, a
// first image or reference images, and continues a video, so every vendorD model is sent as the same id.
export const VENDOR_D_IDS: FamilyIds = {
  mapped: VIDEO_MODELS.filter((model) => model.family === "vendorD").map((model) => model.id),
  defaults: {
    models: {
      "vendorD-1.1-t2v": "veo-3.1-generate-preview",
      "vendorD-1.1-i2v": "veo-3.1-generate-preview",
      "vendorD-1.1-r2v": "veo-3.1-generate-preview",
      "vendorD-1.0-video-edit": "veo-3.1-generate-preview",
    },
    voices: {},
  },
};
