import type { VendorFamily } from "../vendor-families.js";
import { PRESET_VOICES } from "./voices.js";
import type { FamilyIds, VendorIds } from "./vendors/family-ids.js";
import { VENDOR_A_IDS } from "./vendors/vendorA/ids.js";
import { VENDOR_B_IDS } from "./vendors/vendorB/ids.js";
import { VENDOR_C_IDS } from "./vendors/vendorC/ids.js";
import { VENDOR_D_IDS } from "./vendors/vendorD/ids.js";
import { VENDOR_E_IDS } from "./vendors/vendorE/ids.js";
import { VENDOR_F_IDS } from "./vendors/vendorF/ids.js";
import { VENDOR_G_IDS } from "./vendors/vendorG/ids.js";

// What our neutral ids are called at the real vendor. Our public model ids carry the family token and our
// preset voices have ids of our own; a vendor knows neither. Each family's calls send the ids of this map
// (docs/providers/<family>.md names the vendor reference the ids come from). A deployment may replace entries
// with VENDOR_ID_MAP; the result is checked at start, so a live model without a vendor id stops the process.

export type { VendorIds } from "./vendors/family-ids.js";

export type VendorIdMap = Partial<Record<VendorFamily, VendorIds>>;

// One file per family, vendors/<family>/ids.ts, each read from that vendor's reference.
const FAMILY_IDS = {
  vendorA: VENDOR_A_IDS,
  vendorB: VENDOR_B_IDS,
  vendorC: VENDOR_C_IDS,
  vendorD: VENDOR_D_IDS,
  vendorE: VENDOR_E_IDS,
  vendorF: VENDOR_F_IDS,
  vendorG: VENDOR_G_IDS,
} satisfies Partial<Record<VendorFamily, FamilyIds>>;

const MAPPED_MODELS: Partial<Record<VendorFamily, readonly string[]>> = Object.fromEntries(
  Object.entries(FAMILY_IDS).map(([family, ids]) => [family, ids.mapped]),
);

export const DEFAULT_VENDOR_IDS: VendorIdMap = Object.fromEntries(
  Object.entries(FAMILY_IDS).map(([family, ids]) => [family, ids.defaults]),
);

// Overrides replace single entries of the defaults; what they leave out keeps its default.
export function mergeVendorIds(overrides: VendorIdMap): VendorIdMap {
  const merged: VendorIdMap = {};
  const families = new Set([...Object.keys(DEFAULT_VENDOR_IDS), ...Object.keys(overrides)] as VendorFamily[]);
  for (const family of families) {
    const base = DEFAULT_VENDOR_IDS[family];
    const extra = overrides[family];
    merged[family] = {
      models: { ...base?.models, ...extra?.models },
      voices: { ...base?.voices, ...extra?.voices },
    };
  }
  return merged;
}

// Problems with a map for the live families, one line each, naming the model or voice: a live model whose
// calls need a vendor id and have none, a preset voice of such a model without one, or an entry for an id we
// do not have (a typo in an override would otherwise go unnoticed until a request used the model).
export function vendorIdProblems(map: VendorIdMap, liveFamilies: readonly VendorFamily[]): string[] {
  const problems: string[] = [];
  for (const family of liveFamilies) {
    const needed = MAPPED_MODELS[family] ?? [];
    const ids = map[family];
    for (const model of needed) {
      if (!ids?.models[model]) problems.push(`${family} model ${model} has no vendor model id`);
    }
    for (const voice of PRESET_VOICES) {
      if (voice.models.some((model) => needed.includes(model)) && !ids?.voices[voice.voiceId]) {
        problems.push(`${family} preset voice ${voice.voiceId} has no vendor voice id`);
      }
    }
    for (const model of Object.keys(ids?.models ?? {})) {
      if (!needed.includes(model)) problems.push(`${family} model ${model} is not one of the family's mapped models`);
    }
    for (const voice of Object.keys(ids?.voices ?? {})) {
      if (!PRESET_VOICES.some((preset) => preset.voiceId === voice)) problems.push(`${family} voice ${voice} is not a preset voice`);
    }
  }
  return problems;
}

// The id a call sends: the map's, or for an id the map does not cover (a cloned voice, a model of a family not
// yet brought to its reference) the id itself.
export function vendorModelId(ids: VendorIds | undefined, model: string): string {
  return ids?.models[model] ?? model;
}

export function vendorVoiceId(ids: VendorIds | undefined, voice: string): string {
  return ids?.voices[voice] ?? voice;
}
