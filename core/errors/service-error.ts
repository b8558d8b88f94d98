import { ERROR_CATALOGUE, type ErrorCode } from "./catalogue.js";

export interface ErrorBody {
  code: ErrorCode;
  type: string;
  message: string;
  retryable: boolean;
  param?: string;
  details?: Record<string, unknown>;
  request_id?: string;
}

export interface ServiceErrorOptions {
  param?: string;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  // The answer's HTTP status when the code's own does not fit: 410 for an artifact retention deleted, whose code
  // stays artifact_not_found because SPEC.md's list of codes is closed.
  status?: number;
}

// The one error a use-case throws: a public code plus what the caller needs to act on it.
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly param: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;
  private readonly status: number | undefined;

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message);
    this.name = "ServiceError";
    this.code = code;
    this.param = options.param;
    this.details = options.details;
    this.headers = options.headers ?? {};
    this.status = options.status;
  }

  get httpStatus(): number {
    return this.status ?? ERROR_CATALOGUE[this.code].http;
  }

  toBody(requestId?: string): ErrorBody {
    return errorBody(this.code, this.message, {
      param: this.param,
      details: this.details,
      requestId,
    });
  }
}

export function errorBody(
  code: ErrorCode,
  message: string,
  extra: { param?: string | undefined; details?: Record<string, unknown> | undefined; requestId?: string | undefined } = {},
): ErrorBody {
  const spec = ERROR_CATALOGUE[code];
  const body: ErrorBody = { code, type: spec.type, message, retryable: spec.retryable };
  if (extra.param !== undefined) body.param = extra.param;
  if (extra.details !== undefined) body.details = extra.details;
  if (extra.requestId !== undefined) body.request_id = extra.requestId;
  return body;
}
