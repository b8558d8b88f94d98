import type { ProviderEndpoint } from "../config.js";
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

// Downloads an output, at most `attempts` times; then model_output_invalid (SPEC.md: 3 attempts).
export async function downloadOutput(url: string, signal: AbortSignal, attempts = 3, timeoutMs = 60_000): Promise<Buffer> {
  let last = "";
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) });
      if (response.ok) return Buffer.from(await response.arrayBuffer());
      last = `HTTP ${response.status}`;
    } catch (error) {
      if (signal.aborted) throw error;
      last = (error as Error).message;
    }
    if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
  }
  throw new ProviderFailure(
    "model_output_invalid",
    `the model finished but its output could not be downloaded after ${attempts} attempts (${last})`,
    false,
  );
}
