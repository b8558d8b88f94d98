// One family's part of the neutral-to-vendor id map (core/catalog/vendor-ids.ts assembles the families).
export interface VendorIds {
  // neutral model id → vendor model id
  models: Readonly<Record<string, string>>;
  // preset voice id → vendor voice id (cloned voices are named by us at the vendor and need no entry)
  voices: Readonly<Record<string, string>>;
}

export interface FamilyIds {
  // The family's models whose calls have been brought to the vendor's reference and send a mapped id. Models
  // not listed still speak the emulator's protocol with our own ids.
  mapped: readonly string[];
  // Defaults, read from the vendor's reference (docs/providers/<family>.md names it).
  defaults: VendorIds;
}
