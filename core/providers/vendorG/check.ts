import { bearer, record, refusedKey, type FamilyCheck } from "../family-check.js";

// The account's credit balance: free, and `code` 401 in the envelope for a bad key.
export const vendorGCheck: FamilyCheck = {
  call: () => ({ method: "GET", path: "/api/v1/generate/credit" }),
  headers: bearer,
  verdict: ({ status }, body) => {
    const code = record(body).code;
    if (refusedKey(status) || code === 401) return "not_authenticated";
    return status === 200 && code === 200 ? "authenticated" : "unexpected";
  },
};
