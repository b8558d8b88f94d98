import type { InputLimits } from "../../input-limits.js";

// What vendorD publishes as its models' input limits (docs/providers/input-limits.md gathers them with their
// sources); the catalog's model entries name these sets. A bound it does not publish is left out: the service's
// own caps (core/media/limits.ts) then apply alone.

// Veo 3.1 (docs/providers/vendorD.md): pictures go inline as PNG, JPEG or WebP.
export const VENDOR_D_VEO: InputLimits = { image: { formats: ["png", "jpeg", "webp"] } };
