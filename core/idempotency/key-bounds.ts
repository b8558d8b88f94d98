// How long an Idempotency-Key (on MCP, client_request_id) may be: SPEC.md's 1 to 128 characters, read by the
// validation of every surface, the lookup by key and the documents that describe them.
export const IDEMPOTENCY_KEY_MAX_CHARS = 128;
export const IDEMPOTENCY_KEY_LENGTH = `1 to ${IDEMPOTENCY_KEY_MAX_CHARS} characters`;
