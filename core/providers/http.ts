import type { ProviderEndpoint } from "../config.js";
import { decodeDataUri } from "../media/slots.js";
import { spoolBytes, SpoolWriter, type Spooled } from "../media/spool.js";
import { guardedRequest, OutboundError, type OutboundPolicy } from "../net/index.js";
import { ProviderFailure } from "./types.js";

export interface VendorResponse {
  status: number;
  headers: Headers;
  text: string;
}

// One HTTP exchange with a vendor, with a time limit; network errors and time-outs become ProviderFailures.
export async function vendorFetch(
  url: string,
  init: RequestInit & { timeoutMs: number },
  signal: AbortSignal,
): Promise<VendorResponse> {
  const timeout = AbortSignal.timeout(init.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.any([signal, timeout]), redirect: "error" });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    // The worker is stopping: not the vendor's failure. The job is released and runs again elsewhere.
    if (signal.aborted) throw error;
    if (timeout.aborted) throw new ProviderFailure("model_timeout", `vendor did not answer within ${init.timeoutMs} ms`, true);
    throw new ProviderFailure("model_request_failed", `vendor unreachable: ${(error as Error).message}`, true);
  }
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

export function retryAfterMs(headers: Headers): number | undefined {
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
