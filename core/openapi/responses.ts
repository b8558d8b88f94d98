import { CLIENT_REQUEST_ID } from "../ids.js";
import { ERROR_CATALOGUE, EXPIRED_ARTIFACT, type ErrorCode } from "../errors/catalogue.js";
import { errorExampleName, EXPIRED_ARTIFACT_EXAMPLE } from "./error-examples.js";

// Error answers grouped by HTTP status (from the catalogue), and the headers every answer can carry.
export const HEADERS = {
  "X-Request-Id": {
    description:
      "The request's id; also in every error body as request_id. A request's own X-Request-Id is echoed when it is 1 to 128 " +
      "characters of A-Z a-z 0-9 . _ : @ / + = - ; any other value (empty, longer, a space, other characters, non-ASCII) " +
      "is replaced, without refusing the request, by the server's own id, req_ then 24 hex digits.",
    schema: { type: "string", pattern: CLIENT_REQUEST_ID.source, maxLength: 128 },
  },
  "X-RateLimit-Limit": { description: "Requests allowed in the current window for this API key.", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Seconds until the window resets.", schema: { type: "integer" } },
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
  "Preference-Applied": { description: "wait=N when the server waited on the task (Prefer: wait=N).", schema: { type: "string" } },
  "Idempotent-Replayed": { description: "`true` when the answer is the original task of a repeated Idempotency-Key.", schema: { type: "string" } },
  Deprecation: {
    description: "RFC 9745: the task's model is deprecated, since this date (`@` and Unix seconds); the envelope's warnings say more.",
    schema: { type: "string", example: "@1795132800" },
  },
  Sunset: {
    description: "RFC 8594: the HTTP-date from which requests naming the task's model are refused (unsupported_model).",
    schema: { type: "string", example: "Tue, 15 Dec 2026 00:00:00 GMT" },
  },
} as const;

const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

export type HeaderName = keyof typeof HEADERS;

export function responseHeaders(authenticated: boolean, ...extra: HeaderName[]) {
  const names: (keyof typeof HEADERS)[] = ["X-Request-Id", ...(authenticated ? (["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"] as const) : []), ...extra];
  return Object.fromEntries(names.map((name) => [name, header(name)]));
}

// What every operation can answer besides its own refusals: a malformed URL or body (rest-server/plugins), an
// internal error; authenticated ones the refusals of authentication, area and rate limit; a POST a body over the
// REQUEST_BODY_MAX_BYTES limit (core/contracts/request-body.ts).
const EVERY_ROUTE_ERRORS: readonly ErrorCode[] = ["invalid_request", "internal_error"];
const AUTHENTICATED_ERRORS: readonly ErrorCode[] = ["unauthorized", "invalid_api_key", "tenant_disabled", "forbidden", "rate_limited"];

export function errorResponses(codes: readonly ErrorCode[], authenticated: boolean, takesBody: boolean): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  const common = [...EVERY_ROUTE_ERRORS, ...(authenticated ? AUTHENTICATED_ERRORS : []), ...(takesBody ? (["media_too_large"] as const) : [])];
  const listed = new Set([...codes, ...common]);
  for (const code of listed) {
    const status = ERROR_CATALOGUE[code].http;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const answers = [...byStatus].map(([status, list]) => [
    String(status),
    refusal(status, `Refused: ${list.join(", ")}`, list, authenticated, list.map((code) => [code, errorExampleName(code)])),
  ]);
  if (listed.has(EXPIRED_ARTIFACT.code)) {
    const { code, http } = EXPIRED_ARTIFACT;
    const description = `Gone: ${code}, an artifact whose bytes retention deleted (details.reason expired, details.expired_at)`;
    answers.push([String(http), refusal(http, description, [code], authenticated, [[code, EXPIRED_ARTIFACT_EXAMPLE]])]);
  }
  return Object.fromEntries(answers);
}

// One refusal answer: the envelope, its code narrowed to `codes` (a generated client can switch on them
// exhaustively), with the named examples of components/examples.
function refusal(status: number, description: string, codes: readonly ErrorCode[], authenticated: boolean, examples: readonly (readonly [string, string])[]) {
  return {
    description,
    headers: status === 429 ? responseHeaders(authenticated, "Retry-After") : responseHeaders(authenticated && status !== 401 && status !== 403),
    content: {
      "application/json": {
        schema: {
          allOf: [{ $ref: "#/components/schemas/ErrorEnvelope" }],
          // The narrowed error names the Error schema too: a validator that closes objects by default (Redocly's
          // example check) then knows the error's other fields.
          properties: { error: { allOf: [{ $ref: "#/components/schemas/Error" }], properties: { code: { type: "string", enum: codes } } } },
        },
        examples: Object.fromEntries(examples.map(([name, component]) => [name, { $ref: `#/components/examples/${component}` }])),
      },
    },
  };
}
