import type { VendorFamily } from "../vendor-families.js";
import type { Price } from "../credits/pricing.js";
import type { InputLimits } from "./input-limits.js";

export type ModelKind = "speech" | "voice_clone" | "music" | "image" | "video" | "understanding" | "video_prompt_enhancement";

// What every catalog model has. Each kind adds a typed `constraints` object of plain data: validation,
// selection, catalog cards and docs/models.md all read these same values.
export interface CatalogModelBase<K extends ModelKind, C extends object> {
  id: string;
  family: VendorFamily;
  kind: K;
  // Capability ids this model serves, i.e. the endpoints that list it in SPEC.md.
  capabilities: readonly string[];
  created: number;
  description: string;
  constraints: C;
  // The vendor's published bounds on the request's inputs (core/catalog/input-limits.ts).
  input_limits: InputLimits;
  prices: readonly Price[];
}
