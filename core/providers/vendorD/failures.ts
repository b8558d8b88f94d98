import { retryAfterMs, type VendorResponse } from "../http.js";
import { parameterRefusal, ProviderFailure } from "../types.js";

// vendorD uses the google.rpc.Status shape for refusals and for failed operations: {code, message, status,
// details[]}, where details may hold an ErrorInfo (why) or a RetryInfo (when to come back).
export interface RpcStatus {
  code?: number;
  message?: string;
  status?: string;
  details?: { "@type"?: string; reason?: string; retryDelay?: string }[];
}

const PROMPT_BLOCKED = "PROMPT_BLOCKED";
// The Gemini API answers a wrong key with 400 INVALID_ARGUMENT and this ErrorInfo reason, a missing one with 403.
const API_KEY_INVALID = "API_KEY_INVALID";

function statusOf(body: unknown): RpcStatus {
  const error = (body as { error?: unknown } | undefined)?.error;
  return typeof error === "object" && error !== null ? (error as RpcStatus) : {};
}

function wording(status: RpcStatus, httpStatus: number): string {
  return status.status ? `${status.status}: ${status.message ?? ""}`.trim() : `HTTP ${httpStatus}`;
}

// RetryInfo's retryDelay is a protobuf Duration in JSON, such as "2s" or "0.500s".
function retryDelayMs(status: RpcStatus): number | undefined {
  const delay = status.details?.find((d) => d["@type"]?.endsWith("google.rpc.RetryInfo"))?.retryDelay;
  const seconds = delay === undefined ? Number.NaN : Number(delay.replace(/s$/, ""));
  return Number.isFinite(seconds) ? Math.max(0, seconds * 1000) : undefined;
}

export function httpFailure(response: VendorResponse, body: unknown): ProviderFailure {
  const status = statusOf(body);
  const message = wording(status, response.status);
  if (response.status === 429) {
    return new ProviderFailure("model_rate_limited", `vendor rate limit: ${message}`, true, retryDelayMs(status) ?? retryAfterMs(response.headers));
  }
  if (response.status >= 500) return new ProviderFailure("model_request_failed", `vendor error: ${message}`, true);
  if (response.status === 401 || response.status === 403 || status.details?.some((d) => d.reason === API_KEY_INVALID)) {
    return new ProviderFailure("model_unavailable", `vendor refused our credentials: ${message}`, false);
  }
  if (status.details?.some((d) => d.reason === PROMPT_BLOCKED)) {
    return new ProviderFailure("safety_rejected", `vendor safety review: ${message}`, false);
  }
  if (response.status === 400) return parameterRefusal(message);
  return new ProviderFailure("model_request_failed", `vendor refused the request: ${message}`, false);
}

export function operationFailure(status: RpcStatus): ProviderFailure {
  return new ProviderFailure("model_request_failed", `vendor operation failed: ${wording(status, 200)}`, false);
}

export function notJson(response: VendorResponse): ProviderFailure {
  // A garbled answer is treated like a 5xx: the vendor may answer properly next time.
  return new ProviderFailure("model_request_failed", `vendor answered HTTP ${response.status} with a body that is not JSON`, true);
}
