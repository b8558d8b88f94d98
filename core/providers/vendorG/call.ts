import type { ProviderEndpoint } from "../../config.js";
import { bearerJsonCall, retryAfterMs, type VendorResponse } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { ProviderFailure } from "../types.js";

// Every vendorG call (docs/providers/vendorG.md): Bearer key, JSON both ways, and every answer an envelope
// `{code, msg, data}` whose `code` is 200 on success; a refusal's HTTP status is its code. One place maps them
// to public codes.

interface Envelope<T> {
  code?: number;
  msg?: string;
  data?: T | null;
}

const SENSITIVE_INPUT = 451;

function failureOf(code: number, message: string, response: VendorResponse): ProviderFailure {
  if (code === 429) return new ProviderFailure("model_rate_limited", `vendor rate limit: ${message}`, true, retryAfterMs(response.headers));
  if (code === 401 || code === 403) return new ProviderFailure("model_unavailable", `vendor refused our credentials: ${message}`, false);
  if (code >= 500) return new ProviderFailure("model_request_failed", `vendor error: ${message}`, true);
  if (code === SENSITIVE_INPUT) return new ProviderFailure("safety_rejected", `vendor safety review: ${message}`, false);
  return new ProviderFailure("model_request_failed", `vendor error ${code}: ${message}`, false);
}

// POSTs `body` (or GETs when there is none) and returns the `data` of a successful answer; anything else throws
// the mapped ProviderFailure.
export async function callVendorG<T>(
  endpoint: ProviderEndpoint,
  path: string,
  signal: AbortSignal,
  options: { body?: unknown; timeoutMs: number },
): Promise<T> {
  const response = await bearerJsonCall(endpoint, path, signal, options);
  const answer = jsonAnswer(response.text) as Envelope<T> | undefined;
  if (typeof answer !== "object" || answer === null) {
    if (response.status !== 200) throw failureOf(response.status, `HTTP ${response.status}`, response);
    // A garbled answer is treated like a 5xx: the vendor may answer properly next time.
    throw new ProviderFailure("model_request_failed", `vendor answered HTTP ${response.status} with a body that is not JSON`, true);
  }
  const code = response.status !== 200 ? response.status : (answer.code ?? 200);
  if (code !== 200) throw failureOf(code, answer.msg ?? `HTTP ${response.status}`, response);
  if (answer.data === undefined || answer.data === null) {
    throw new ProviderFailure("model_request_failed", "vendor answered success without data", false);
  }
  return answer.data;
}
