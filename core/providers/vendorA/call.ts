import { DEFAULT_VENDOR_IDS, vendorModelId } from "../../catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../config.js";
import { bearerJsonCall, retryAfterMs, type VendorResponse } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { parameterRefusal, ProviderFailure } from "../types.js";

// Every vendorA call (docs/providers/vendorA.md): Bearer key, JSON both ways, and vendor-side errors as HTTP 200
// with a non-zero base_resp.status_code. One place maps them to public codes for speech, image and video.

interface BaseResp {
  status_code?: number;
  status_msg?: string;
}

const RATE_LIMITED = 1002;
const TOKEN_RATE_LIMITED = 1039;
const BAD_CREDENTIALS = 1004;
const INPUT_FLAGGED = 1026;
const OUTPUT_BLOCKED = 1027;
const INVALID_PARAMS = 2013;

function failureOf(base: BaseResp, response: VendorResponse): ProviderFailure {
  const code = base.status_code;
  const message = base.status_msg ?? `HTTP ${response.status}`;
  if (response.status === 429 || code === RATE_LIMITED || code === TOKEN_RATE_LIMITED) {
    return new ProviderFailure("model_rate_limited", `vendor rate limit: ${message}`, true, retryAfterMs(response.headers));
  }
  if (response.status === 401 || response.status === 403 || code === BAD_CREDENTIALS) {
    return new ProviderFailure("model_unavailable", `vendor refused our credentials: ${message}`, false);
  }
  if (response.status >= 500) return new ProviderFailure("model_request_failed", `vendor error: ${message}`, true);
  if (code === INPUT_FLAGGED) return new ProviderFailure("safety_rejected", `vendor safety review: ${message}`, false);
  if (code === OUTPUT_BLOCKED) return new ProviderFailure("content_filtered", `vendor blocked the output: ${message}`, false);
  if (code === INVALID_PARAMS) return parameterRefusal(`vendor error ${code}: ${message}`);
  return new ProviderFailure("model_request_failed", `vendor error ${code ?? response.status}: ${message}`, false);
}

// POSTs `body` (or GETs when there is none) and returns the answer of a successful call; anything else throws
// the mapped ProviderFailure.
// `openAiCompatible` calls (the chat completions) follow OpenAI's answer shape, where a success need not carry a
// base_resp; a base_resp, when present, still decides.
export async function callVendorA<T extends { base_resp?: BaseResp }>(
  endpoint: ProviderEndpoint,
  path: string,
  signal: AbortSignal,
  options: { body?: unknown; timeoutMs: number; openAiCompatible?: boolean },
): Promise<T> {
  return vendorAAnswer<T>(await bearerJsonCall(endpoint, path, signal, options), options.openAiCompatible === true);
}

// A vendorA answer, whatever the request's body was (JSON, or the multipart of a file upload).
export function vendorAAnswer<T extends { base_resp?: BaseResp }>(response: VendorResponse, openAiCompatible = false): T {
  const answer = jsonAnswer(response.text) as T | undefined;
  if (typeof answer !== "object" || answer === null) {
    if (response.status !== 200) throw failureOf({}, response);
    // A garbled answer is treated like a 5xx: the vendor may answer properly next time.
    throw new ProviderFailure("model_request_failed", `vendor answered HTTP ${response.status} with a body that is not JSON`, true);
  }
  const succeeded = answer.base_resp === undefined ? openAiCompatible : answer.base_resp.status_code === 0;
  if (response.status !== 200 || !succeeded) throw failureOf(answer.base_resp ?? {}, response);
  return answer;
}

// The vendor's id for one of our models (core/catalog/vendors/vendorA/ids.ts). An endpoint built without loadConfig
// (a test's own) carries no ids: the shipped defaults apply.
export function vendorAModelId(endpoint: ProviderEndpoint, model: string): string {
  return vendorModelId(endpoint.ids ?? DEFAULT_VENDOR_IDS.vendorA, model);
}
