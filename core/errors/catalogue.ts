// Every public error code of SPEC.md with its HTTP status, retryability and family, in one table.
// `type` values are ours (SPEC.md leaves them open); docs/decisions.md lists them.

export type ErrorType =
  | "authentication_error"
  | "permission_error"
  | "billing_error"
  | "invalid_request_error"
  | "safety_error"
  | "not_found_error"
  | "conflict_error"
  | "rate_limit_error"
  | "provider_error"
  | "api_error";

interface CodeSpec {
  http: number;
  retryable: boolean;
  type: ErrorType;
}

export const ERROR_CATALOGUE = {
  unauthorized: { http: 401, retryable: false, type: "authentication_error" },
  invalid_api_key: { http: 401, retryable: false, type: "authentication_error" },
  api_key_region_mismatch: { http: 400, retryable: false, type: "authentication_error" },
  tenant_disabled: { http: 403, retryable: false, type: "permission_error" },
  forbidden: { http: 403, retryable: false, type: "permission_error" },
  email_send_failed: { http: 502, retryable: true, type: "api_error" },
  insufficient_balance: { http: 402, retryable: false, type: "billing_error" },
  billing_failed: { http: 500, retryable: true, type: "billing_error" },
  payment_provider_unavailable: { http: 503, retryable: false, type: "billing_error" },
  invalid_request: { http: 422, retryable: false, type: "invalid_request_error" },
  skill_package_format_invalid: { http: 422, retryable: false, type: "invalid_request_error" },
  unsupported_capability: { http: 400, retryable: false, type: "invalid_request_error" },
  unsupported_model: { http: 400, retryable: false, type: "invalid_request_error" },
  unsupported_option: { http: 422, retryable: false, type: "invalid_request_error" },
  no_eligible_model: { http: 422, retryable: false, type: "invalid_request_error" },
  voice_model_incompatible: { http: 422, retryable: false, type: "invalid_request_error" },
  unsupported_input_modality: { http: 422, retryable: false, type: "invalid_request_error" },
  context_length_exceeded: { http: 422, retryable: false, type: "invalid_request_error" },
  safety_rejected: { http: 400, retryable: false, type: "safety_error" },
  content_filtered: { http: 502, retryable: false, type: "safety_error" },
  not_found: { http: 404, retryable: false, type: "not_found_error" },
  streaming_not_yet_implemented: { http: 501, retryable: false, type: "invalid_request_error" },
  invalid_window: { http: 422, retryable: false, type: "invalid_request_error" },
  invalid_cursor: { http: 400, retryable: false, type: "invalid_request_error" },
  callback_url_required: { http: 422, retryable: false, type: "invalid_request_error" },
  callback_signing_key_not_found: { http: 404, retryable: false, type: "not_found_error" },
  callback_signing_key_inactive: { http: 422, retryable: false, type: "invalid_request_error" },
  invalid_media: { http: 422, retryable: false, type: "invalid_request_error" },
  unsupported_media_type: { http: 422, retryable: false, type: "invalid_request_error" },
  media_too_large: { http: 413, retryable: false, type: "invalid_request_error" },
  media_fetch_failed: { http: 422, retryable: true, type: "invalid_request_error" },
  task_not_found: { http: 404, retryable: false, type: "not_found_error" },
  conflict: { http: 409, retryable: false, type: "conflict_error" },
  result_undeliverable: { http: 502, retryable: false, type: "api_error" },
  artifact_not_found: { http: 404, retryable: false, type: "not_found_error" },
  voice_not_found: { http: 404, retryable: false, type: "not_found_error" },
  idempotency_conflict: { http: 409, retryable: false, type: "conflict_error" },
  request_in_progress: { http: 409, retryable: true, type: "conflict_error" },
  rate_limited: { http: 429, retryable: true, type: "rate_limit_error" },
  model_unavailable: { http: 503, retryable: true, type: "provider_error" },
  model_request_failed: { http: 502, retryable: true, type: "provider_error" },
  model_timeout: { http: 504, retryable: true, type: "provider_error" },
  model_rate_limited: { http: 429, retryable: true, type: "provider_error" },
  model_output_invalid: { http: 502, retryable: true, type: "provider_error" },
  internal_error: { http: 500, retryable: true, type: "api_error" },
} as const satisfies Record<string, CodeSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

// The one answer whose status is not its code's: an artifact whose bytes retention deleted is artifact_not_found
// (SPEC.md's list of codes is closed) answered 410 Gone, so a caller tells an artifact that never was from one that
// was and is gone for good (docs/decisions.md, retention). Wherever the code is listed, the OpenAPI document
// declares this answer beside the 404.
export const EXPIRED_ARTIFACT = { code: "artifact_not_found", http: 410 } as const satisfies { code: ErrorCode; http: number };

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, value);
}
