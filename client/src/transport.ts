import { connectionFailure, ServiceError, unenvelopedFailure } from "./errors.js";
import type { ErrorObject } from "./types.js";

export interface TransportOptions {
  // The service's address, such as http://127.0.0.1:8080 (no /v1).
  baseUrl: string;
  apiKey: string;
  // Retries of a retryable failure after the first attempt (SPEC.md: retry with backoff, honour Retry-After).
  maxRetries?: number;
  // The first backoff; each retry doubles it (with jitter), up to maxRetryDelayMs.
  retryBaseMs?: number;
  // A longer Retry-After than this is not waited out: the failure is thrown to the caller instead.
  maxRetryDelayMs?: number;
  // Per attempt, until the answer's headers (streams) or its whole body (JSON). Longer than a 60-second server wait.
  requestTimeoutMs?: number;
  fetch?: typeof fetch;
}

export interface RequestSpec {
  method: "GET" | "POST" | "DELETE";
  // A path below baseUrl (/v1/…) or an absolute URL (a signed artifact URL).
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  // Sends Authorization; off for signed URLs, whose signature is the credential (and which may be a CDN's).
  authenticated?: boolean;
  // Sent once, never retried: a write without an idempotency key, which a retry after a lost answer could apply twice.
  once?: boolean;
  signal?: AbortSignal;
}

export interface JsonAnswer<T> {
  status: number;
  headers: Headers;
  body: T;
}

const DEFAULTS = { maxRetries: 4, retryBaseMs: 500, maxRetryDelayMs: 60_000, requestTimeoutMs: 90_000 };

// Seconds, or an HTTP date (RFC 9110 §10.2.3).
function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener("abort", aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", aborted, { once: true });
  });
}

async function failureOf(response: Response): Promise<ServiceError> {
  const requestId = response.headers.get("x-request-id") ?? undefined;
  const retryAfter = retryAfterSeconds(response.headers);
  const text = await response.text().catch(() => "");
  let error: Partial<ErrorObject> | undefined;
  try {
    error = (JSON.parse(text) as { error?: Partial<ErrorObject> }).error;
  } catch {
    error = undefined;
  }
  if (!error || typeof error.code !== "string" || typeof error.message !== "string") {
    return unenvelopedFailure(response.status, requestId, retryAfter);
  }
  const complete: ErrorObject = { type: "api_error", retryable: false, ...error } as ErrorObject;
  return new ServiceError(complete, response.status, { requestId, retryAfterSeconds: retryAfter });
}

// One request function under every call of the client: authentication, JSON, the error envelope as a typed
// ServiceError, and bounded retries of retryable failures. A retry repeats the request exactly (headers included),
// so a create's Idempotency-Key, set once by the caller of this function, is the same on every attempt.
export class Transport {
  private readonly options: Required<Omit<TransportOptions, "fetch">> & { fetch: typeof fetch };

  constructor(options: TransportOptions) {
    this.options = {
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      apiKey: options.apiKey,
      maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
      retryBaseMs: options.retryBaseMs ?? DEFAULTS.retryBaseMs,
      maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    };
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  async json<T>(spec: RequestSpec): Promise<JsonAnswer<T>> {
    return this.withRetries(spec, async (response) => ({ status: response.status, headers: response.headers, body: (await response.json()) as T }));
  }

  // The answer as it comes (a stream, bytes): retried until its headers arrive, never once its body is flowing.
  async open(spec: RequestSpec): Promise<Response> {
    return this.withRetries(spec, async (response) => response, { bodyOutlivesTimeout: true });
  }

  private url(spec: RequestSpec): string {
    const url = new URL(/^https?:\/\//.test(spec.path) ? spec.path : `${this.options.baseUrl}${spec.path}`);
    for (const [name, value] of Object.entries(spec.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    return url.toString();
  }

  private init(spec: RequestSpec): RequestInit {
    const headers: Record<string, string> = { accept: "application/json", ...spec.headers };
    if (spec.authenticated !== false) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (spec.body !== undefined) headers["content-type"] = "application/json";
    return { method: spec.method, headers, ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}) };
  }

  private async withRetries<T>(spec: RequestSpec, read: (response: Response) => Promise<T>, mode: { bodyOutlivesTimeout?: boolean } = {}): Promise<T> {
    const url = this.url(spec);
    const init = this.init(spec);
    for (let attempt = 0; ; attempt++) {
      let failure: ServiceError;
      const attemptController = new AbortController();
      const forward = () => attemptController.abort(spec.signal?.reason);
      spec.signal?.addEventListener("abort", forward, { once: true });
      const timer = setTimeout(() => attemptController.abort(new Error(`no answer within ${this.options.requestTimeoutMs} ms`)), this.options.requestTimeoutMs);
      try {
        const response = await this.options.fetch(url, { ...init, signal: attemptController.signal });
        if (response.ok) {
          if (mode.bodyOutlivesTimeout) clearTimeout(timer);
          return await read(response);
        }
        failure = await failureOf(response);
      } catch (error) {
        if (spec.signal?.aborted) throw spec.signal.reason;
        failure = error instanceof ServiceError ? error : connectionFailure(attemptController.signal.aborted ? attemptController.signal.reason : error);
      } finally {
        clearTimeout(timer);
        if (!mode.bodyOutlivesTimeout) spec.signal?.removeEventListener("abort", forward);
      }
      const delay = this.backoff(attempt, failure.retryAfterSeconds);
      if (!failure.retryable || spec.once || attempt >= this.options.maxRetries || delay > this.options.maxRetryDelayMs) throw failure;
      await sleep(delay, spec.signal);
    }
  }

  // Exponential with equal jitter, and never sooner than the service's Retry-After.
  private backoff(attempt: number, retryAfter: number | undefined): number {
    const exponential = Math.min(this.options.maxRetryDelayMs, this.options.retryBaseMs * 2 ** attempt);
    const jittered = exponential / 2 + (Math.random() * exponential) / 2;
    return retryAfter === undefined ? jittered : Math.max(retryAfter * 1000, jittered);
  }
}
