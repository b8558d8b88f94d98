import type { ImageGenerationInput } from "../../capabilities/images/generations.js";
import { canvasPixelSize } from "../../catalog/canvas.js";
import type { ProviderEndpoint } from "../../config.js";
import { retryAfterMs, vendorFetch } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../types.js";

// vendorA's synchronous image generation (docs/providers/vendorA-image.md): one POST answers with download URLs.

const GENERATION_TIMEOUT_MS = 120_000;

interface ImageAnswer {
  base_resp?: { status_code?: number; status_msg?: string };
  data?: { image_urls?: string[] };
}

export async function generateImages(endpoint: ProviderEndpoint, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const input = request.input as unknown as ImageGenerationInput;
  const size = canvasPixelSize(input.canvas.tier, input.canvas.aspect);
  const generation = {
    model: request.model,
    prompt: input.prompt,
    width: size.width,
    height: size.height,
    n: input.count,
    response_format: "url",
    prompt_optimizer: input.enhance_prompt === true,
  };
  const response = await vendorFetch(
    `${endpoint.baseUrl}/v1/image_generation`,
    {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${endpoint.apiKey}` },
      body: JSON.stringify(generation),
      timeoutMs: GENERATION_TIMEOUT_MS,
    },
    signal,
  );
  const body = jsonAnswer(response.text);
  const answer = (typeof body === "object" && body !== null ? body : {}) as ImageAnswer;
  const vendorCode = answer.base_resp?.status_code;
  const vendorMessage = answer.base_resp?.status_msg ?? `HTTP ${response.status}`;
  if (response.status === 429 || vendorCode === 1002) {
    throw new ProviderFailure("model_rate_limited", `vendor rate limit: ${vendorMessage}`, true, retryAfterMs(response.headers));
  }
  if (response.status === 401 || response.status === 403 || vendorCode === 1004) {
    throw new ProviderFailure("model_unavailable", `vendor refused our credentials: ${vendorMessage}`, false);
  }
  if (response.status >= 500) throw new ProviderFailure("model_request_failed", `vendor error: ${vendorMessage}`, true);
  if (response.status === 200 && answer !== body) {
    // A cut-off answer is treated like a 5xx: the vendor may answer properly next time.
    throw new ProviderFailure("model_request_failed", "vendor answered HTTP 200 with a body that is not JSON", true);
  }
  if (vendorCode === 1026) throw new ProviderFailure("safety_rejected", `vendor safety review: ${vendorMessage}`, false);
  if (vendorCode === 1027) throw new ProviderFailure("content_filtered", `vendor blocked the output: ${vendorMessage}`, false);
  if (response.status !== 200 || vendorCode !== 0) {
    throw new ProviderFailure("model_request_failed", `vendor error ${vendorCode ?? response.status}: ${vendorMessage}`, false);
  }
  const urls = answer.data?.image_urls ?? [];
  // The request is never split: fewer images than asked for fails the task rather than billing a partial set.
  if (urls.length !== input.count) {
    throw new ProviderFailure("model_request_failed", `vendor reported success with ${urls.length} of ${input.count} images`, false);
  }
  return { status: "done", outputs: urls.map((url) => ({ url, kind: "image" as const, format: "png" })) };
}
