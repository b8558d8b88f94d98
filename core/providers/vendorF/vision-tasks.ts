import type { ProviderEndpoint } from "../../config.js";
import { resolvedImages } from "../image-inputs.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../types.js";
import { callVendorF, taskOf, unfinishedOutcome, type VendorFTask } from "./task-api.js";

// vendorF-vision (docs/providers/vendorF.md): image understanding as a vision task, created and read like the
// family's image tasks. The completed task carries the answer and what the vendor counted: tokens both ways and
// the images it read, which is what the postpaid task is billed from.

interface VisionTask extends VendorFTask {
  result?: { answer?: string; usage?: { input_tokens?: number; output_tokens?: number; images?: number } };
}

export async function createVisionTask(endpoint: ProviderEndpoint, request: ProviderRequestOf<"image_to_text">, signal: AbortSignal): Promise<ProviderOutcome> {
  const input = request.input;
  const body = {
    model: request.model,
    input: {
      prompt: input.prompt,
      images: resolvedImages(request.input).map((image) => ({ url: image.url })),
      detail: input.detail,
      ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
    },
  };
  return outcomeOf(taskOf<VisionTask>(await callVendorF(endpoint, "POST", "/v2/vision-tasks", signal, body), "create"));
}

export async function readVisionTask(endpoint: ProviderEndpoint, ref: string, signal: AbortSignal): Promise<ProviderOutcome> {
  return outcomeOf(taskOf<VisionTask>(await callVendorF(endpoint, "GET", `/v2/vision-tasks/${encodeURIComponent(ref)}`, signal), "read"));
}

export async function cancelVisionTask(endpoint: ProviderEndpoint, ref: string, signal: AbortSignal): Promise<void> {
  await callVendorF(endpoint, "POST", `/v2/vision-tasks/${encodeURIComponent(ref)}/cancel`, signal);
}

function outcomeOf(task: VisionTask): ProviderOutcome {
  if (task.state !== "completed") return unfinishedOutcome(task);
  const answer = task.result?.answer;
  const usage = task.result?.usage;
  if (typeof answer !== "string" || answer.length === 0) {
    throw new ProviderFailure("model_request_failed", "vendor completed the vision task without an answer", false);
  }
  if (usage?.input_tokens === undefined || usage.output_tokens === undefined || usage.images === undefined) {
    // The task is billed from these counts; an answer without them cannot be settled.
    throw new ProviderFailure("model_request_failed", "vendor completed the vision task without its usage", false);
  }
  return {
    status: "done",
    outputs: [],
    text: answer,
    measured: { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, image_count: usage.images },
  };
}
