import { ALL_MODELS } from "../catalog/registry.js";
import { vendorModelId } from "../catalog/vendor-ids.js";
import type { ProviderEndpoint, VendorFamily } from "../config.js";
import type { VendorResponse } from "./http.js";

// What a family declares for `svc vendors check` (core/providers/vendor-checks.ts runs it): one cheap real call
// that proves the base URL answers and the key is accepted without starting paid work, and how to read the answer.
// Each family's check sits in its folder beside its adapter; the helpers here are the shapes several share.

export type CheckVerdict = "authenticated" | "not_authenticated" | "unexpected";

export interface FamilyCheck {
  // The call as the report shows it.
  call(endpoint: ProviderEndpoint): { method: "GET" | "POST"; path: string; body?: unknown };
  headers(apiKey: string): Record<string, string>;
  verdict(answer: VendorResponse, body: unknown): CheckVerdict;
  // The vendor's model ids from a listing answer; absent for a vendor without a listing.
  listedModels?(body: unknown): string[];
}

// A task id no vendor has: its reads answer "not found" (or an empty status) once the key is accepted.
export const MADE_UP_TASK_ID = "svc-vendors-check-0000";

export const bearer = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });
export const refusedKey = (status: number) => status === 401 || status === 403;
// Google's APIs answer a key they do not know with 400 API_KEY_INVALID as well as 401/403.
export const googleKey = (apiKey: string) => ({ "x-goog-api-key": apiKey });
export const googleKeyRefused = (status: number, text: string) => refusedKey(status) || (status === 400 && /API_KEY_INVALID|API key not valid/.test(text));
export const record = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {});

// A status read of a made-up task: "not found" (404), or a 200/400 the vendor gives an unknown id, means the key
// was accepted; 401/403 that it was not.
export function taskRead(path: (id: string) => string, headers: (apiKey: string) => Record<string, string>): FamilyCheck {
  return {
    call: () => ({ method: "GET", path: path(MADE_UP_TASK_ID) }),
    headers,
    verdict: ({ status }) => (refusedKey(status) ? "not_authenticated" : [200, 400, 404].includes(status) ? "authenticated" : "unexpected"),
  };
}

// The first catalog model of a family, by the id its calls send.
export function firstVendorModel(family: VendorFamily, endpoint: ProviderEndpoint): string {
  const model = ALL_MODELS.find((candidate) => candidate.family === family);
  return vendorModelId(endpoint.ids, model?.id ?? "");
}
