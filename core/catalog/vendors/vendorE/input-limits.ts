import { MB, type InputLimits } from "../../input-limits.js";

// Imagen 3 capability (Vertex AI's model page): an image sent in a request is at most 10 MB.
export const VENDOR_E_IMAGEN_CAPABILITY: InputLimits = { image: { max_bytes: 10 * MB } };
