import { ProviderFailure } from "./types.js";

// The bytes of one of the service's own stored inputs, read from its signed URL, for vendors that take media
// inline (base64 in the JSON body) rather than by URL.

const READ_TIMEOUT_MS = 30_000;

export async function storedInputBase64(url: string, signal: AbortSignal): Promise<string> {
  try {
    const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(READ_TIMEOUT_MS)]) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return Buffer.from(await response.arrayBuffer()).toString("base64");
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ProviderFailure("model_request_failed", `the stored input could not be read: ${(error as Error).message}`, true);
  }
}
