import { googleKey, googleKeyRefused, record, type FamilyCheck } from "../family-check.js";

// Gemini API: the model listing. A key it does not know is answered 400 API_KEY_INVALID (or 401/403).
export const vendorDCheck: FamilyCheck = {
  call: () => ({ method: "GET", path: "/v1beta/models?pageSize=1000" }),
  headers: googleKey,
  verdict: ({ status, text }) => (googleKeyRefused(status, text) ? "not_authenticated" : status === 200 ? "authenticated" : "unexpected"),
  listedModels: (body) => {
    const models = record(body).models;
    return Array.isArray(models) ? models.map((model) => String(record(model).name ?? "").replace(/^models\//, "")).filter(Boolean) : [];
  },
};
