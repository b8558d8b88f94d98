import { ALL_MODELS } from "../catalog/registry.js";
import type { ProviderEndpoint, VendorFamily } from "../config.js";
import { vendorFetch, type VendorResponse } from "./http.js";
import { jsonAnswer } from "./json-answer.js";
import { familyCheck } from "./registry.js";
import { ProviderFailure } from "./types.js";

// `svc vendors check`: one cheap real call per configured family that proves the base URL answers and the key is
// accepted, without starting any paid work: a status read of a task id nobody has (the answer "no such task" needs
// an authenticated caller), the account's credit balance, or a model listing where the vendor has one. Each
// family's call is the one its doc in docs/providers names for this, declared in its folder (vendorX/check.ts).

const CHECK_TIMEOUT_MS = 15_000;

export interface VendorCheckReport {
  family: VendorFamily;
  base_url: string;
  call: string;
  reachable: boolean;
  authenticated: boolean;
  // Our vendor model ids against the vendor's listing, or "not listed by vendor".
  models: { known: string[]; unknown: string[] } | "not listed by vendor" | "not checked";
  ok: boolean;
  // What the vendor answered, or why it could not be reached.
  detail: string;
}

// The vendor model ids a family's calls send: the id map's (with VENDOR_ID_MAP applied), else our own.
function ourVendorModels(family: VendorFamily, endpoint: ProviderEndpoint): string[] {
  const mapped = Object.values(endpoint.ids?.models ?? {});
  const ids = mapped.length > 0 ? mapped : ALL_MODELS.filter((model) => model.family === family).map((model) => model.id);
  return [...new Set(ids)];
}

function summary(answer: VendorResponse): string {
  const text = answer.text.replace(/\s+/g, " ").trim();
  return `HTTP ${answer.status}${text ? `: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}` : ""}`;
}

export async function checkVendor(family: VendorFamily, endpoint: ProviderEndpoint, signal: AbortSignal = AbortSignal.timeout(CHECK_TIMEOUT_MS * 2)): Promise<VendorCheckReport> {
  const check = familyCheck(family);
  const { method, path, body } = check.call(endpoint);
  const base = { family, base_url: endpoint.baseUrl, call: `${method} ${path}` };
  let answer: VendorResponse;
  try {
    answer = await vendorFetch(
      `${endpoint.baseUrl}${path}`,
      {
        method,
        headers: { ...check.headers(endpoint.apiKey), ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: CHECK_TIMEOUT_MS,
      },
      signal,
    );
  } catch (error) {
    if (!(error instanceof ProviderFailure)) throw error;
    return { ...base, reachable: false, authenticated: false, models: "not checked", ok: false, detail: `unreachable: ${error.message}` };
  }
  const parsed = jsonAnswer(answer.text);
  // Every vendor answers in JSON; anything else (a proxy's page, a wrong host) proves nothing about the key.
  const verdict = parsed === undefined ? "unexpected" : check.verdict(answer, parsed);
  const authenticated = verdict === "authenticated";
  let models: VendorCheckReport["models"] = "not listed by vendor";
  if (!authenticated) models = "not checked";
  else if (check.listedModels) {
    const listed = new Set(check.listedModels(parsed));
    const ours = ourVendorModels(family, endpoint);
    models = { known: ours.filter((id) => listed.has(id)), unknown: ours.filter((id) => !listed.has(id)) };
  }
  const modelsOk = typeof models === "string" || models.unknown.length === 0;
  const detail = verdict === "unexpected" ? `unexpected answer: ${summary(answer)}` : summary(answer);
  return { ...base, reachable: true, authenticated, models, ok: authenticated && modelsOk, detail };
}

// One line a person reads per family.
export function describeCheck(report: VendorCheckReport): string {
  const state = !report.reachable ? "unreachable" : report.authenticated ? "reachable, authenticated" : "reachable, not authenticated";
  const models =
    typeof report.models === "string"
      ? report.models
      : report.models.unknown.length === 0
        ? `model ids known: ${report.models.known.join(", ") || "(none mapped)"}`
        : `model ids NOT listed by vendor: ${report.models.unknown.join(", ")}`;
  return `${report.ok ? "ok  " : "FAIL"} ${report.family}  ${state}; ${models}\n     ${report.call} at ${report.base_url}\n     ${report.detail}`;
}
