import { IMAGE_MODELS } from "../../image-models.js";
import type { FamilyIds } from "../family-ids.js";

// Read from Imagen on Vertex AI's model list (docs/providers/vendorE.md): the flagship is Imagen 4 Ultra, the
// previous generation Imagen 4, and the model tuned for editing Imagen 3's capability model, the one Imagen model
// that takes reference images and masks.
export const VENDOR_E_IDS: FamilyIds = {
  mapped: IMAGE_MODELS.filter((model) => model.family === "vendorE").map((model) => model.id),
  defaults: {
    models: {
      "vendorE-image-2.5-flare": "imagen-4.0-ultra-generate-001",
      "vendorE-image-2.5-sunburst": "imagen-3.0-capability-001",
      "vendorE-image-2": "imagen-4.0-generate-001",
    },
    voices: {},
  },
};
