import type { ProviderEndpoint } from "../../config.js";
import { bearerJsonCall, retryAfterMs, type VendorResponse } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { parameterRefusal, ProviderFailure } from "../types.js";

// Every vendorG call (docs/providers/vendorG.md): Bearer key, JSON both ways, and every answer an envelope
// `{code, msg, data}` whose `code` is 200 on success. The reference documents the codes inside the body of an
// HTTP 200 answer (and a separate HTTP 500); a refusal sent with its code as the HTTP status is read the same.
// One place maps them to public codes.

interface Envelope<T> {
  code?: number;
  msg?: string;
  data?: T | null;
}

// The reference's codes other than 200: 429 is "insufficient credits", while 405 and 430 are its rate limits.
const RATE_LIMITED = new Set([405, 430]);
const INSUFFICIENT_CREDITS = 429;
const MAINTENANCE = 455;
// 400 "Invalid parameters", 413 "Theme or prompt too long".
const INVALID_PARAMETERS = new Set([400, 413]);

function failureOf(code: number, message: string, response: VendorResponse): ProviderFailure {
  if (RATE_LIMITED.has(code)) return new ProviderFailure("model_rate_limited", `vendor rate limit: ${message}`, true, retryAfterMs(response.headers));
  if (code === 401 || code === 403) return new ProviderFailure("model_unavailable", `vendor refused our credentials: ${message}`, false);
  if (code === INSUFFICIENT_CREDITS) return new ProviderFailure("model_unavailable", `vendor account has insufficient credits: ${message}`, false);
  if (code >= 500 || code === MAINTENANCE) return new ProviderFailure("model_request_failed", `vendor error: ${message}`, true);
  if (INVALID_PARAMETERS.has(code)) return parameterRefusal(`vendor error ${code}: ${message}`);
  return new ProviderFailure("model_request_failed", `vendor error ${code}: ${message}`, false);
}

// The envelope's code (or, without a readable envelope, the HTTP status) and message, before any mapping.
interface VendorGAnswer<T> {
  code: number;
  msg: string;
  data: T | null | undefined;
  response: VendorResponse;
  // False when the body is not a JSON envelope.
  enveloped: boolean;
}

async function readVendorG<T>(
  endpoint: ProviderEndpoint,
  path: string,
  signal: AbortSignal,
  options: { body?: unknown; timeoutMs: number },
): Promise<VendorGAnswer<T>> {
  const response = await bearerJsonCall(endpoint, path, signal, options);
  const answer = jsonAnswer(response.text) as Envelope<T> | undefined;
  if (typeof answer !== "object" || answer === null) {
    return { code: response.status, msg: `HTTP ${response.status}`, data: undefined, response, enveloped: false };
  }
  const code = response.status !== 200 ? response.status : (answer.code ?? 200);
  return { code, msg: answer.msg ?? `HTTP ${response.status}`, data: answer.data, response, enveloped: true };
}

// POSTs `body` (or GETs when there is none) and returns the `data` of a successful answer; anything else throws
// the mapped ProviderFailure.
export async function callVendorG<T>(
  endpoint: ProviderEndpoint,
  path: string,
  signal: AbortSignal,
  options: { body?: unknown; timeoutMs: number },
): Promise<T> {
  const answer = await readVendorG<T>(endpoint, path, signal, options);
  if (!answer.enveloped) {
    if (answer.code !== 200) throw failureOf(answer.code, answer.msg, answer.response);
    // A garbled answer is treated like a 5xx: the vendor may answer properly next time.
    throw new ProviderFailure("model_request_failed", `vendor answered HTTP ${answer.code} with a body that is not JSON`, true);
  }
  if (answer.code !== 200) throw failureOf(answer.code, answer.msg, answer.response);
  if (answer.data === undefined || answer.data === null) {
    throw new ProviderFailure("model_request_failed", "vendor answered success without data", false);
  }
  return answer.data;
}
