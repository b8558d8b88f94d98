import type { ErrorCode, ErrorObject, Task } from "./types.js";

// A refusal of the service (its error envelope, SPEC.md's Errors), or a failure standing in for one: an answer
// with no envelope (a proxy's 502 page) is given the catalogue code its status means, and a request that got no
// answer at all (network error, timeout) is `internal_error` with status 0. `retryable` is the service's word when
// it gave one: retry the same request, with the same Idempotency-Key, after a backoff.
export class ServiceError extends Error {
  override readonly name = "ServiceError";
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly param: string | undefined;
  readonly type: string;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | undefined;
  // Seconds from the Retry-After header (429, some 503s), when the answer had one.
  readonly retryAfterSeconds: number | undefined;
  // On a failed create: the Idempotency-Key every attempt sent, to find the task by later if one was admitted.
  idempotencyKey: string | undefined;

  constructor(error: ErrorObject, status: number, extra: { requestId?: string; retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(error.message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.code = error.code;
    this.status = status;
    this.retryable = error.retryable;
    this.param = error.param;
    this.type = error.type;
    this.details = error.details;
    this.requestId = error.request_id ?? extra.requestId;
    this.retryAfterSeconds = extra.retryAfterSeconds;
  }
}

// No answer at all: the request may or may not have reached the service, so only an idempotent retry is safe.
export function connectionFailure(cause: unknown): ServiceError {
  // fetch's own message is a bare "fetch failed"; the reason (ECONNREFUSED, a reset socket…) is its cause.
  const inner = cause instanceof Error && cause.cause instanceof Error ? `: ${cause.cause.message}` : "";
  const reason = cause instanceof Error ? `${cause.message}${inner}` : String(cause);
  return new ServiceError(
    { code: "internal_error", type: "connection_error", message: `No answer from the service: ${reason}`, retryable: true },
    0,
    { cause },
  );
}

// An answer without the error envelope: the code its status stands for in the catalogue.
export function unenvelopedFailure(status: number, requestId: string | undefined, retryAfterSeconds: number | undefined): ServiceError {
  const code: ErrorCode = status === 429 ? "rate_limited" : status === 404 ? "not_found" : status === 503 ? "model_unavailable" : "internal_error";
  return new ServiceError(
    { code, type: "api_error", message: `HTTP ${status} without the service's error envelope`, retryable: status === 429 || status >= 500 },
    status,
    { requestId, retryAfterSeconds },
  );
}

// `wait` ran out of time with the task still open; `task` is the last state seen, and the task goes on.
export class WaitTimeoutError extends Error {
  override readonly name = "WaitTimeoutError";
  constructor(readonly task: Task, timeoutMs: number) {
    super(`task ${task.task_id} is still ${task.status} after ${timeoutMs} ms; it goes on, wait again or poll it`);
  }
}

export type WebhookFailure = "missing_signature" | "malformed_signature" | "timestamp_out_of_tolerance" | "signature_mismatch" | "malformed_body";

// A callback delivery that must not be trusted; `reason` says which check failed.
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  constructor(readonly reason: WebhookFailure, message: string) {
    super(message);
  }
}
