import type { ImageUnderstandingInput } from "../../capabilities/images/responses.js";
import type { ProviderEndpoint } from "../../config.js";
import { resolvedImages } from "../image-inputs.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../types.js";
import { callVendorA } from "./call.js";

// vendorA-M3 image understanding (docs/providers/vendorA-image.md): one synchronous chat completion whose user
// message holds the prompt and the images as URLs the vendor downloads. The answer carries the reply and what the
// vendor counted (tokens both ways, images read), which is what the postpaid task is billed from.

const COMPLETION_TIMEOUT_MS = 120_000;
const FINISHED = ["stop", "length"];

interface CompletionAnswer {
  base_resp?: { status_code?: number; status_msg?: string };
  choices?: { message?: { content?: string }; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; image_count?: number };
}

export async function answerAboutImages(endpoint: ProviderEndpoint, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const input = request.input as unknown as ImageUnderstandingInput;
  const content = [
    { type: "text", text: input.prompt },
    ...resolvedImages(request.input).map((image) => ({ type: "image_url", image_url: { url: image.url, detail: input.detail } })),
  ];
  const body = {
    model: request.model,
    messages: [{ role: "user", content }],
    ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
    ...(input.response_format === "json" ? { response_format: { type: "json_object" } } : {}),
  };
  const answer = await callVendorA<CompletionAnswer>(endpoint, "/v1/text/chatcompletion_v2", signal, { body, timeoutMs: COMPLETION_TIMEOUT_MS });
  const choice = answer.choices?.[0];
  const text = choice?.message?.content;
  if (!choice || !FINISHED.includes(choice.finish_reason ?? "") || typeof text !== "string" || text.length === 0) {
    const reason = JSON.stringify(choice?.finish_reason);
    throw new ProviderFailure("model_request_failed", `vendor answered without a finished reply (finish_reason ${reason})`, false);
  }
  const usage = answer.usage;
  if (usage?.prompt_tokens === undefined || usage.completion_tokens === undefined || usage.image_count === undefined) {
    // The task is billed from these counts; an answer without them cannot be settled.
    throw new ProviderFailure("model_request_failed", "vendor answered without its usage", false);
  }
  return {
    status: "done",
    outputs: [],
    text,
    measured: { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens, image_count: usage.image_count },
  };
}
