import { ERROR_CATALOGUE, EXPIRED_ARTIFACT, type ErrorCode } from "../errors/catalogue.js";
import { errorBody, type ErrorBody } from "../errors/index.js";
import { failure, invalidRequest } from "../errors/validation.js";
import { REQUEST_BODY_MAX_BYTES } from "../contracts/request-body.js";

// An example refusal for each public code, as the error envelope carries it (built with the service's own
// errorBody, so type and retryable come from the catalogue). The document keeps them as components/examples and
// each refusal answer lists the examples of the codes it can carry.

interface Sample {
  message: string;
  param?: string;
  details?: Record<string, unknown>;
}

const invalid = invalidRequest([failure(["input"], "is required (string)")]);

const SAMPLES: Record<ErrorCode, Sample> = {
  unauthorized: { message: "Send `Authorization: Bearer <API key>`." },
  invalid_api_key: { message: "The API key is unknown or has been revoked." },
  api_key_region_mismatch: { message: "This API key belongs to region eu; this endpoint serves region us." },
  tenant_disabled: { message: "The account that owns this API key is suspended." },
  forbidden: { message: "This API key may not use the speech area.", details: { required_area: "speech", key_areas: ["tasks"] } },
  email_send_failed: { message: "The login code could not be sent; try again." },
  insufficient_balance: { message: "The task needs 0.870000 credits; 0.120000 are available.", details: { required_credits: "0.870000", available_credits: "0.120000" } },
  billing_failed: { message: "The charge could not be recorded; retry with the same Idempotency-Key." },
  payment_provider_unavailable: { message: "No checkout provider is configured for this payment method." },
  invalid_request: { message: invalid.message, param: invalid.param, details: invalid.details },
  skill_package_format_invalid: { message: "The skill package's slug must be lowercase and hyphenated." },
  unsupported_capability: { message: "No capability text_to_hologram.", param: "/capability" },
  unsupported_model: { message: "text_to_speech has no model vendorX-speech; use auto or one of the listed models.", param: "/model" },
  unsupported_option: {
    message: "vendorC-image-1 does not offer size 4096x4096.",
    param: "/size",
    details: { candidate_failures: [{ model: "vendorC-image-1", code: "unsupported_resolution", received: "4096x4096", supported: ["1024x1024", "2048x2048"] }] },
  },
  no_eligible_model: {
    message: "No live model can honour the whole request.",
    details: { candidate_failures: [{ model: "vendorC-image-1", code: "unsupported_resolution", received: "4096x4096", supported: ["1024x1024"] }] },
  },
  voice_model_incompatible: { message: "Voice en_female_aria does not speak on vendorA-speech-2.8-turbo.", param: "/voice" },
  unsupported_input_modality: { message: "vendorA-video-understanding takes no audio input.", param: "/audio" },
  context_length_exceeded: { message: "The prompt exceeds the model's context window.", param: "/prompt" },
  safety_rejected: { message: "The prompt failed the content safety review; edit it and send it as a new request.", param: "/prompt" },
  content_filtered: { message: "The output was blocked during generation." },
  not_found: { message: "No capability text_to_hologram in the catalog.", details: { capability: "text_to_hologram" } },
  streaming_not_yet_implemented: { message: "stream=true is not supported." },
  invalid_window: { message: "The time range is invalid." },
  invalid_cursor: {
    message: "The pagination cursor is malformed; pass next_cursor from a previous page unchanged.",
    details: { errors: [{ loc: ["query", "cursor"], reason: "is not a next_cursor of this list" }] },
  },
  callback_url_required: { message: "callback_signing_key_id needs a callback_url.", param: "/callback_url" },
  callback_signing_key_not_found: { message: "No callback signing key csk_01kbn5qd7x9z1b3c5d7f9g1h3j.", param: "/callback_signing_key_id" },
  callback_signing_key_inactive: { message: "Callback signing key csk_01kbn5qd7x9z1b3c5d7f9g1h3j is retired.", param: "/callback_signing_key_id" },
  invalid_media: { message: "The image could not be decoded.", param: "/images/0" },
  unsupported_media_type: { message: "audio/ogg is not accepted here; send WAV, MP3 or FLAC.", param: "/sample" },
  media_too_large: { message: `The body exceeds ${REQUEST_BODY_MAX_BYTES} bytes.` },
  media_fetch_failed: { message: "https://example.com/photo.png answered 404.", param: "/images/0" },
  task_not_found: { message: "No task task_01kbn5q8yz3x7w2v9r4t6m8p0c." },
  conflict: { message: "The task is running at the vendor and cannot be stopped; it will end on its own.", details: { action: "poll" } },
  result_undeliverable: { message: "The result is too large to deliver." },
  artifact_not_found: { message: "No artifact art_01kbn5qb2c4d6e8f0g1h3j5k7m." },
  voice_not_found: { message: "No voice en_male_nobody.", param: "/voice" },
  idempotency_conflict: {
    message: "This Idempotency-Key was used with a different request body; use a new key for changed work.",
    details: { recovery: { action: "use_new_idempotency_key", requires_input_change: false, client_request_id: "new" } },
  },
  request_in_progress: { message: "A request with this Idempotency-Key is still being admitted; retry shortly with the same key." },
  rate_limited: {
    message: "Too many requests for this credential: at most 60000 per 60 s. Retry after 12 s.",
    details: { scope: "api_key", limit: 60000, window_seconds: 60, retry_after_seconds: 12 },
  },
  model_unavailable: { message: "vendorA-speech-2.8-hd is not configured on this deployment.", param: "/model" },
  model_request_failed: { message: "The model request failed after retries." },
  model_timeout: { message: "The model did not answer in time." },
  model_rate_limited: { message: "The model's capacity is rate-limited; retry later." },
  model_output_invalid: { message: "The model's output could not be downloaded after 3 attempts." },
  internal_error: { message: "Something went wrong on our side; retry with the same Idempotency-Key." },
};

// The 410 of an artifact retention deleted (EXPIRED_ARTIFACT), an example of its own.
const EXPIRED_SAMPLE: Sample = {
  message: "Artifact art_01kbn5qb2c4d6e8f0g1h3j5k7m has expired: retention deleted its bytes at 2026-11-30T03:00:00.000Z.",
  details: { artifact_id: "art_01kbn5qb2c4d6e8f0g1h3j5k7m", reason: "expired", expired_at: "2026-11-30T03:00:00.000Z" },
};

function example(code: ErrorCode, sample: Sample): { error: ErrorBody } {
  return { error: errorBody(code, sample.message, { param: sample.param, details: sample.details, requestId: "req_4f1c2a9be07d35c6a18b92e0" }) };
}

export function errorExample(code: ErrorCode): { error: ErrorBody } {
  return example(code, SAMPLES[code]);
}

// The name of a code's example in components/examples.
export const errorExampleName = (code: ErrorCode) => `Error_${code}`;
export const EXPIRED_ARTIFACT_EXAMPLE = `Error_${EXPIRED_ARTIFACT.code}_expired`;

export function errorExampleComponents(codes: Iterable<ErrorCode>) {
  const listed = new Set(codes);
  const components: [string, { summary: string; "x-http-status": number; value: { error: ErrorBody } }][] = [...listed]
    .sort()
    .map((code) => [errorExampleName(code), { summary: `${code} (HTTP ${ERROR_CATALOGUE[code].http})`, "x-http-status": ERROR_CATALOGUE[code].http, value: errorExample(code) }]);
  if (listed.has(EXPIRED_ARTIFACT.code)) {
    const { code, http } = EXPIRED_ARTIFACT;
    components.push([EXPIRED_ARTIFACT_EXAMPLE, { summary: `${code} (HTTP ${http}, expired)`, "x-http-status": http, value: example(code, EXPIRED_SAMPLE) }]);
  }
  return Object.fromEntries(components);
}
