import { retryAfterMs, type VendorResponse } from "../http.js";
import { parameterRefusal, ProviderFailure } from "../types.js";

// vendorC refuses with an HTTP status and a flat {request_id, code, message} (docs/providers/vendorC.md); a task
// that fails later carries the same code and message in its output.

const INSPECTION_FAILED = "DataInspectionFailed";
const UNAVAILABLE_CODES = ["InvalidApiKey", "AccessDenied", "ModelNotFound"];

export interface VendorCError {
  code?: string;
  message?: string;
}

function wording(error: VendorCError, status: number): string {
  return error.code ? `${error.code}: ${error.message ?? ""}`.trim() : `HTTP ${status}`;
}

export function httpFailure(response: VendorResponse, body: unknown): ProviderFailure {
  const error = (typeof body === "object" && body !== null ? body : {}) as VendorCError;
  const message = wording(error, response.status);
  if (response.status === 429) {
    return new ProviderFailure("model_rate_limited", `vendor rate limit: ${message}`, true, retryAfterMs(response.headers));
  }
  if (response.status >= 500) return new ProviderFailure("model_request_failed", `vendor error: ${message}`, true);
  if (response.status === 401 || response.status === 403 || (error.code !== undefined && UNAVAILABLE_CODES.includes(error.code))) {
    return new ProviderFailure("model_unavailable", `vendor refused the model or our credentials: ${message}`, false);
  }
  // At submission the inspection covers the input: the prompt itself was refused.
  if (error.code === INSPECTION_FAILED) return new ProviderFailure("safety_rejected", `vendor safety review: ${message}`, false);
  if (response.status === 400) return parameterRefusal(message);
  return new ProviderFailure("model_request_failed", `vendor refused the request: ${message}`, false);
}

// A FAILED task: the input passed inspection at submission, so a failed inspection now is about the output.
export function taskFailure(error: VendorCError): ProviderFailure {
  const message = wording(error, 200);
  if (error.code === INSPECTION_FAILED) return new ProviderFailure("content_filtered", `vendor blocked the output: ${message}`, false);
  return new ProviderFailure("model_request_failed", `vendor task failed: ${message}`, false);
}

export function notJson(response: VendorResponse): ProviderFailure {
  // A garbled answer is treated like a 5xx: the vendor may answer properly next time.
  return new ProviderFailure("model_request_failed", `vendor answered HTTP ${response.status} with a body that is not JSON`, true);
}
