import { canvasPixelSize, type PixelSize } from "../../catalog/canvas.js";
import type { ProviderEndpoint } from "../../config.js";
import { imageInputsAsk, type ImageCapability } from "../image-inputs.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../types.js";
import { callVendorA, vendorAModelId } from "./call.js";

// vendorA's synchronous image generation (docs/providers/vendorA-image.md): one POST answers with download URLs.
// Image-to-image and edits are the same call with the input image as a `subject_reference` the vendor downloads:
// `style` for image-to-image, `base` for an edit.

const GENERATION_TIMEOUT_MS = 120_000;

interface ImageAnswer {
  base_resp?: { status_code?: number; status_msg?: string };
  data?: { image_urls?: string[] };
}

interface Generation {
  prompt: string;
  size: PixelSize;
  count: number;
  enhancePrompt: boolean;
  references: { type: "style" | "base"; image_file: string }[];
}

function generationOf(request: ProviderRequestOf<ImageCapability>): Generation {
  if (request.capability !== "text_to_image") {
    const ask = imageInputsAsk(request);
    const type = ask.capability === "image_edit" ? "base" : "style";
    return {
      prompt: ask.prompt,
      size: ask.size,
      count: ask.count,
      enhancePrompt: ask.enhance_prompt === true,
      references: ask.images.map((image) => ({ type, image_file: image.url })),
    };
  }
  const input = request.input;
  return {
    prompt: input.prompt,
    size: canvasPixelSize(input.canvas.tier, input.canvas.aspect),
    count: input.count,
    enhancePrompt: input.enhance_prompt === true,
    references: [],
  };
}

export async function generateImages(endpoint: ProviderEndpoint, request: ProviderRequestOf<ImageCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const generation = generationOf(request);
  const body = {
    model: vendorAModelId(endpoint, request.model),
    prompt: generation.prompt,
    width: generation.size.width,
    height: generation.size.height,
    n: generation.count,
    response_format: "url",
    prompt_optimizer: generation.enhancePrompt,
    ...(generation.references.length > 0 ? { subject_reference: generation.references } : {}),
  };
  const answer = await callVendorA<ImageAnswer>(endpoint, "/v1/image_generation", signal, { body, timeoutMs: GENERATION_TIMEOUT_MS });
  const urls = answer.data?.image_urls ?? [];
  // The request is never split: fewer images than asked for fails the task rather than billing a partial set.
  if (urls.length !== generation.count) {
    throw new ProviderFailure("model_request_failed", `vendor reported success with ${urls.length} of ${generation.count} images`, false);
  }
  return { status: "done", outputs: urls.map((url) => ({ url, kind: "image" as const, format: "png" })) };
}
