import type { FamilyIds } from "../family-ids.js";

// vendorF's protocol matches no published vendor API we could find (docs/providers/vendorF.md): there is no
// vendor model list to read ids from, so no model is mapped and its calls send our own ids.
export const VENDOR_F_IDS: FamilyIds = {
  mapped: [],
  defaults: { models: {}, voices: {} },
};
