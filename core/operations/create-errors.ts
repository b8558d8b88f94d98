import type { ErrorCode } from "../errors/catalogue.js";

// What a task creation can refuse with, besides authentication, area and rate limit: a quote gives the same
// refusals (without the idempotency ones, since it takes no key).
export const ADMISSION_ERRORS: readonly ErrorCode[] = [
  "api_key_region_mismatch",
  "unsupported_model",
  "model_unavailable",
  "safety_rejected",
  "insufficient_balance",
  "voice_not_found",
  "artifact_not_found",
  "callback_signing_key_not_found",
  "invalid_request",
  "unsupported_option",
  "no_eligible_model",
  "voice_model_incompatible",
  "unsupported_input_modality",
  "context_length_exceeded",
  "callback_url_required",
  "callback_signing_key_inactive",
  "invalid_media",
  "unsupported_media_type",
  "media_fetch_failed",
  "media_too_large",
];

export const CREATE_ERRORS: readonly ErrorCode[] = [...ADMISSION_ERRORS, "idempotency_conflict", "request_in_progress"];
