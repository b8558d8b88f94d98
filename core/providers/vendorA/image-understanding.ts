import type { ProviderEndpoint } from "../../config.js";
import { resolvedImages } from "../image-inputs.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import type { ProviderOutcome } from "../types.js";
import { askVendorA } from "./chat-completion.js";

// vendorA-M3 image understanding (docs/providers/vendorA-image.md): one chat completion whose user message holds
// the prompt and the images as URLs the vendor downloads. The postpaid task is billed the vendor's token counts
// and the images it read: every image sent, since a reply means the vendor read them all.
export async function answerAboutImages(endpoint: ProviderEndpoint, request: ProviderRequestOf<"image_to_text">, signal: AbortSignal): Promise<ProviderOutcome> {
  const input = request.input;
  const images = resolvedImages(request.input);
  const reply = await askVendorA(
    endpoint,
    {
      model: request.model,
      prompt: input.prompt,
      media: images.map((image) => ({ type: "image_url", image_url: { url: image.url, detail: input.detail } })),
      ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
      json: input.response_format === "json",
    },
    signal,
  );
  return {
    status: "done",
    outputs: [],
    text: reply.text,
    measured: { input_tokens: reply.promptTokens, output_tokens: reply.completionTokens, image_count: images.length },
  };
}
