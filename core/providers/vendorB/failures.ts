import { retryAfterMs, type VendorResponse } from "../http.js";
import { parameterRefusal, ProviderFailure } from "../types.js";

// vendorB answers every refusal with an HTTP status and {error: {code, message}} (docs/providers/vendorB.md).
export interface VendorBError {
  code?: string;
  message?: string;
}

const INPUT_FLAGGED = "InputTextSensitiveContentDetected";
const OUTPUT_BLOCKED = ["OutputVideoSensitiveContentDetected", "OutputTextSensitiveContentDetected"];
const UNKNOWN_MODEL = "InvalidEndpointOrModel.NotFound";

export function errorOf(body: unknown): VendorBError {
  const error = (body as { error?: unknown } | undefined)?.error;
  return typeof error === "object" && error !== null ? (error as VendorBError) : {};
}

function wording(error: VendorBError, status: number): string {
  return error.code ? `${error.code}: ${error.message ?? ""}`.trim() : `HTTP ${status}`;
}

// A refused HTTP exchange (any status but 200), mapped to the public code; `body` is undefined when it was not JSON.
export function httpFailure(response: VendorResponse, body: unknown): ProviderFailure {
  const error = errorOf(body);
  const message = wording(error, response.status);
  if (response.status === 429) {
    return new ProviderFailure("model_rate_limited", `vendor rate limit: ${message}`, true, retryAfterMs(response.headers));
  }
  if (response.status >= 500) return new ProviderFailure("model_request_failed", `vendor error: ${message}`, true);
  if (response.status === 401 || response.status === 403 || error.code === UNKNOWN_MODEL) {
    return new ProviderFailure("model_unavailable", `vendor refused the model or our credentials: ${message}`, false);
  }
  if (error.code === INPUT_FLAGGED) return new ProviderFailure("safety_rejected", `vendor safety review: ${message}`, false);
  if (response.status === 400) return parameterRefusal(message);
  return new ProviderFailure("model_request_failed", `vendor refused the request: ${message}`, false);
}

// The error a finished job (or completion) reports: blocked output is content_filtered, anything else final.
export function jobFailure(error: VendorBError): ProviderFailure {
  const message = wording(error, 200);
  if (error.code !== undefined && OUTPUT_BLOCKED.includes(error.code)) {
    return new ProviderFailure("content_filtered", `vendor blocked the output: ${message}`, false);
  }
  return new ProviderFailure("model_request_failed", `vendor job failed: ${message}`, false);
}

export function notJson(response: VendorResponse): ProviderFailure {
  // A garbled answer is treated like a 5xx: the vendor may answer properly next time.
  return new ProviderFailure("model_request_failed", `vendor answered HTTP ${response.status} with a body that is not JSON`, true);
}
