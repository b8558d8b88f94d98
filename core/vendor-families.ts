// The seven vendor families behind the neutral tokens. A module of its own, importing nothing, because the
// configuration, the catalog and the id maps all name families and the configuration reads the id maps.
export const VENDOR_FAMILIES = ["vendorA", "vendorB", "vendorC", "vendorD", "vendorE", "vendorF", "vendorG"] as const;
export type VendorFamily = (typeof VENDOR_FAMILIES)[number];

// A family named by stored data (a task row), which may be one this build does not know.
export function isVendorFamily(value: string): value is VendorFamily {
  return (VENDOR_FAMILIES as readonly string[]).includes(value);
}
