import { ALL_MODELS } from "../catalog/registry.js";
import { vendorModelId } from "../catalog/vendor-ids.js";
import type { ProviderEndpoint, VendorFamily } from "../config.js";
import { vendorFetch, type VendorResponse } from "./http.js";
import { jsonAnswer } from "./json-answer.js";
import { ProviderFailure } from "./types.js";

// `svc vendors check`: one cheap real call per configured family that proves the base URL answers and the key is
// accepted, without starting any paid work: a status read of a task id nobody has (the answer "no such task" needs
// an authenticated caller), the account's credit balance, or a model listing where the vendor has one. Each
// family's call is the one its doc in docs/providers names for this.

// A task id no vendor has: its reads answer "not found" (or an empty status) once the key is accepted.
const MADE_UP_TASK_ID = "svc-vendors-check-0000";
const CHECK_TIMEOUT_MS = 15_000;

type Verdict = "authenticated" | "not_authenticated" | "unexpected";

interface FamilyCheck {
  // The call as the report shows it.
  call(endpoint: ProviderEndpoint): { method: "GET" | "POST"; path: string; body?: unknown };
  headers(apiKey: string): Record<string, string>;
  verdict(answer: VendorResponse, body: unknown): Verdict;
  // The vendor's model ids from a listing answer; absent for a vendor without a listing.
  listedModels?(body: unknown): string[];
}

const bearer = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });
const refusedKey = (status: number) => status === 401 || status === 403;
// Google's APIs answer a key they do not know with 400 API_KEY_INVALID as well as 401/403.
const googleKey = (apiKey: string) => ({ "x-goog-api-key": apiKey });
const googleKeyRefused = (status: number, text: string) => refusedKey(status) || (status === 400 && /API_KEY_INVALID|API key not valid/.test(text));
const record = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {});

// A status read of a made-up task: "not found" (404), or a 200/400 the vendor gives an unknown id, means the key
// was accepted; 401/403 that it was not.
function taskRead(path: (id: string) => string, headers: (apiKey: string) => Record<string, string>): FamilyCheck {
  return {
    call: () => ({ method: "GET", path: path(MADE_UP_TASK_ID) }),
    headers,
    verdict: ({ status }) => (refusedKey(status) ? "not_authenticated" : [200, 400, 404].includes(status) ? "authenticated" : "unexpected"),
  };
}

// The first catalog model of a family, by the id its calls send.
function firstVendorModel(family: VendorFamily, endpoint: ProviderEndpoint): string {
  const model = ALL_MODELS.find((candidate) => candidate.family === family);
  return vendorModelId(endpoint.ids, model?.id ?? "");
}

const CHECKS: Record<VendorFamily, FamilyCheck> = {
  // MiniMax-style: Video Generation V2's task query (the video call the adapter makes) with a made-up id; every
  // answer carries base_resp, 1004 for a bad key.
  vendorA: {
    call: () => ({ method: "GET", path: `/v2/query/video_generation/${MADE_UP_TASK_ID}` }),
    headers: bearer,
    verdict: ({ status }, body) => {
      const code = record(record(body).base_resp).status_code;
      if (refusedKey(status) || code === 1004) return "not_authenticated";
      return status === 200 && typeof code === "number" ? "authenticated" : "unexpected";
    },
  },
  // ModelArk: reading a task nobody created answers 404 ResourceNotFound to a valid key, 401 otherwise.
  vendorB: taskRead((id) => `/api/v3/contents/generations/tasks/${id}`, bearer),
  // DashScope: a task id it does not know reads as task_status UNKNOWN (200) for a valid key, 401 InvalidApiKey otherwise.
  vendorC: taskRead((id) => `/api/v1/tasks/${id}`, bearer),
  // Gemini API: the model listing. A key it does not know is answered 400 API_KEY_INVALID (or 401/403).
  vendorD: {
    call: () => ({ method: "GET", path: "/v1beta/models?pageSize=1000" }),
    headers: googleKey,
    verdict: ({ status, text }) => (googleKeyRefused(status, text) ? "not_authenticated" : status === 200 ? "authenticated" : "unexpected"),
    listedModels: (body) => {
      const models = record(body).models;
      return Array.isArray(models) ? models.map((model) => String(record(model).name ?? "").replace(/^models\//, "")).filter(Boolean) : [];
    },
  },
  // Vertex AI's Imagen predict with no instances: refused as invalid (400) once the key is accepted, so nothing is
  // rendered. A 404 (no such model or project path) proves nothing about the key.
  vendorE: {
    call: (endpoint) => ({ method: "POST", path: `/publishers/google/models/${firstVendorModel("vendorE", endpoint)}:predict`, body: { instances: [] } }),
    headers: googleKey,
    verdict: ({ status, text }) => (googleKeyRefused(status, text) ? "not_authenticated" : status === 400 ? "authenticated" : "unexpected"),
  },
  vendorF: taskRead((id) => `/v2/image-tasks/${id}`, (apiKey) => ({ authorization: `Key ${apiKey}` })),
  // The account's credit balance: free, and `code` 401 in the envelope for a bad key.
  vendorG: {
    call: () => ({ method: "GET", path: "/api/v1/generate/credit" }),
    headers: bearer,
    verdict: ({ status }, body) => {
      const code = record(body).code;
      if (refusedKey(status) || code === 401) return "not_authenticated";
      return status === 200 && code === 200 ? "authenticated" : "unexpected";
    },
  },
};

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
  const check = CHECKS[family];
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
