// The largest request body the REST API reads: 32 MiB, room for inline media (SPEC.md: a larger body is 413
// media_too_large). Read by the server's body limit, its refusal and the OpenAPI document's example of it.
export const REQUEST_BODY_MAX_BYTES = 32 * 1024 * 1024;
export const REQUEST_BODY_MAX_MIB = REQUEST_BODY_MAX_BYTES / 1024 / 1024;
