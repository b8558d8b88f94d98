import type { IncomingHttpHeaders } from "node:http";
import { request, type Dispatcher } from "undici";
import type { ProviderEndpoint } from "../config.js";
import { decodeDataUri } from "../media/slots.js";
import { spoolBytes, SpoolWriter, type Spooled } from "../media/spool.js";
import { guardedRequest, OutboundError, type OutboundPolicy } from "../net/index.js";
import { ProviderFailure } from "./types.js";

// What the adapters read of a vendor's answer; its headers as a lookup by lower-case name.
export interface VendorResponse {
  status: number;
  headers: VendorHeaders;
  text: string;
}

export interface VendorHeaders {
  get(name: string): string | null;
}

export interface VendorRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | FormData | undefined;
  timeoutMs: number;
}

// One HTTP exchange with a vendor, with a time limit; network errors, time-outs and redirects (a vendor's API never
// redirects an API call; following one would send our key elsewhere) become ProviderFailures. It goes through
// undici's request, kept-alive per vendor origin, not through fetch: every task makes such calls, and fetch's web
// streams and combined abort signals cost the worker more CPU than the rest of a cheap task's handling.
export async function vendorFetch(url: string, init: VendorRequest, signal: AbortSignal): Promise<VendorResponse> {
  signal.throwIfAborted();
  const { body, headers } = await encodedBody(init);
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, init.timeoutMs);
  const stop = () => abort.abort(signal.reason);
  signal.addEventListener("abort", stop, { once: true });
  try {
    const response = await request(url, { method: init.method as Dispatcher.HttpMethod, headers, body, signal: abort.signal });
    const text = await response.body.text();
    if (response.statusCode >= 300 && response.statusCode < 400) {
      throw new ProviderFailure("model_request_failed", `vendor unreachable: it answered a redirect (HTTP ${response.statusCode})`, true);
    }
    return { status: response.statusCode, headers: headersOf(response.headers), text };
  } catch (error) {
    // The worker is stopping: not the vendor's failure. The job is released and runs again elsewhere.
    if (signal.aborted) throw error;
    if (error instanceof ProviderFailure) throw error;
    if (timedOut) throw new ProviderFailure("model_timeout", `vendor did not answer within ${init.timeoutMs} ms`, true);
    throw new ProviderFailure("model_request_failed", `vendor unreachable: ${(error as Error).message}`, true);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", stop);
  }
}

// A multipart body (a voice clone's sample) is encoded as fetch would, boundary and all; other bodies go as they are.
async function encodedBody(init: VendorRequest): Promise<{ body: string | Buffer | undefined; headers: Record<string, string> }> {
  if (!(init.body instanceof FormData)) return { body: init.body, headers: init.headers };
  const encoded = new Response(init.body);
  const contentType = encoded.headers.get("content-type") ?? "multipart/form-data";
  return { body: Buffer.from(await encoded.arrayBuffer()), headers: { ...init.headers, "content-type": contentType } };
}

function headersOf(raw: IncomingHttpHeaders): VendorHeaders {
  return {
    get(name) {
      const value = raw[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

// A JSON call with a Bearer key, as vendorA and vendorG make them: POST with `body`, GET without one.
export function bearerJsonCall(
  endpoint: ProviderEndpoint,
  path: string,
  signal: AbortSignal,
  options: { body?: unknown; timeoutMs: number },
): Promise<VendorResponse> {
  const { body } = options;
  return vendorFetch(
    `${endpoint.baseUrl}${path}`,
    {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${endpoint.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: options.timeoutMs,
    },
    signal,
  );
}

export function retryAfterMs(headers: VendorHeaders): number | undefined {
  const value = headers.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export interface OutputDownload {
  // The local file the output is spooled to, as it arrives.
  file: string;
  // The cap for the output's kind (core/media/limits.ts): a larger output fails at once, without another attempt.
  maxBytes: number;
  policy: OutboundPolicy;
  headers?: Record<string, string>;
  attempts?: number;
  timeoutMs?: number;
}

const invalidOutput = (reason: string) =>
  new ProviderFailure("model_output_invalid", `the model finished but its output could not be downloaded (${reason})`, false);

// Downloads an output through the guarded client (every redirect checked), streamed to a file, at most `attempts`
// times; then model_output_invalid (SPEC.md: 3 attempts).
export async function downloadOutput(url: string, signal: AbortSignal, download: OutputDownload): Promise<Spooled> {
  // Some vendors answer small outputs inline, as a data URI: nothing to fetch, the same cap.
  if (url.startsWith("data:")) {
    const decoded = decodeDataUri(url, download.maxBytes);
    if (!decoded) throw invalidOutput("a malformed data URI");
    if ("tooLarge" in decoded) throw invalidOutput(`it is larger than ${download.maxBytes} bytes`);
    return spoolBytes(decoded.bytes, download.file);
  }
  const attempts = download.attempts ?? 3;
  let last = "";
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const sink = new SpoolWriter(download.file);
    try {
      const response = await guardedRequest(download.policy, {
        method: "GET",
        url,
        ...(download.headers ? { headers: download.headers } : {}),
        timeoutMs: download.timeoutMs ?? 60_000,
        maxResponseBytes: download.maxBytes,
        maxRedirects: 3,
        signal,
        sink,
      });
      if (response.status >= 200 && response.status < 300) return sink.spooled();
      sink.destroy();
      last = `HTTP ${response.status}`;
    } catch (error) {
      sink.destroy();
      if (signal.aborted) throw error;
      if (!(error instanceof OutboundError)) throw error;
      if (error.failure === "too_large") throw invalidOutput(`it is larger than ${download.maxBytes} bytes`);
      if (error.failure === "refused") throw invalidOutput(error.message);
      last = error.message;
    }
    if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
  }
  throw new ProviderFailure("model_output_invalid", `the model finished but its output could not be downloaded after ${attempts} attempts (${last})`, false);
}
