import { firstVendorModel, googleKey, googleKeyRefused, type FamilyCheck } from "../family-check.js";

// Vertex AI's Imagen predict with no instances: refused as invalid (400) once the key is accepted, so nothing is
// rendered. A 404 (no such model or project path) proves nothing about the key.
export const vendorECheck: FamilyCheck = {
  call: (endpoint) => ({ method: "POST", path: `/publishers/google/models/${firstVendorModel("vendorE", endpoint)}:predict`, body: { instances: [] } }),
  headers: googleKey,
  verdict: ({ status, text }) => (googleKeyRefused(status, text) ? "not_authenticated" : status === 400 ? "authenticated" : "unexpected"),
};
