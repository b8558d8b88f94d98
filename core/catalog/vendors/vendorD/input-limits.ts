import type { InputLimits } from "../../input-limits.js";

// Veo 3.1 (docs/providers/vendorD.md): pictures go inline as PNG, JPEG or WebP.
export const VENDOR_D_VEO: InputLimits = { image: { formats: ["png", "jpeg", "webp"] } };
