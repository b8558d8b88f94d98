import type { ImageGenerationInput } from "../../capabilities/images/generations.js";
import { canvasPixelSize } from "../../catalog/canvas.js";
import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../types.js";
import { callVendorA } from "./call.js";

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
  const answer = await callVendorA<ImageAnswer>(endpoint, "/v1/image_generation", signal, {
    body: generation,
    timeoutMs: GENERATION_TIMEOUT_MS,
  });
  const urls = answer.data?.image_urls ?? [];
  // The request is never split: fewer images than asked for fails the task rather than billing a partial set.
  if (urls.length !== input.count) {
    throw new ProviderFailure("model_request_failed", `vendor reported success with ${urls.length} of ${input.count} images`, false);
  }
  return { status: "done", outputs: urls.map((url) => ({ url, kind: "image" as const, format: "png" })) };
}
