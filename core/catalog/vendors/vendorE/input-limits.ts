import { MB, type InputLimits } from "../../input-limits.js";

// What vendorE publishes as its models' input limits (docs/providers/input-limits.md gathers them with their
// sources); the catalog's model entries name these sets. A bound it does not publish is left out: the service's
// own caps (core/media/limits.ts) then apply alone.

// Imagen 3 capability (Vertex AI's model page): an image sent in a request is at most 10 MB.
export const VENDOR_E_IMAGEN_CAPABILITY: InputLimits = { image: { max_bytes: 10 * MB } };
