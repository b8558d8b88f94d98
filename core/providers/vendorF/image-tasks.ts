import { canvasPixelSize } from "../../catalog/canvas.js";
import type { ProviderEndpoint } from "../../config.js";
import { imageInputsAsk, type ImageCapability } from "../image-inputs.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../types.js";
import { imageInputsTaskInput } from "./image-inputs.js";
import { callVendorF, taskOf, unfinishedOutcome, type VendorFTask } from "./task-api.js";
import { imageTaskFields } from "./task-input.js";

// vendorF's image tasks (docs/providers/vendorF.md): create a task, then read it until it is completed, failed or
// canceled. Each read reports how far along the task is and when to look again.

interface ImageTask extends VendorFTask {
  result?: { images?: { url?: string; content_type?: string }[] };
}

export async function createImageTask(endpoint: ProviderEndpoint, request: ProviderRequestOf<ImageCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const response = await callVendorF(endpoint, "POST", "/v2/image-tasks", signal, { model: request.model, input: taskInput(request) });
  return outcomeOf(taskOf<ImageTask>(response, "create"), request.input.count);
}

export async function readImageTask(endpoint: ProviderEndpoint, ref: string, request: ProviderRequestOf<ImageCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const response = await callVendorF(endpoint, "GET", `/v2/image-tasks/${encodeURIComponent(ref)}`, signal);
  return outcomeOf(taskOf<ImageTask>(response, "read"), request.input.count);
}

// A task that has already finished cannot be canceled (409); the service ends its own task either way.
export async function cancelImageTask(endpoint: ProviderEndpoint, ref: string, signal: AbortSignal): Promise<void> {
  await callVendorF(endpoint, "POST", `/v2/image-tasks/${encodeURIComponent(ref)}/cancel`, signal);
}

// Text to image sends the prompt alone; image-to-image and edits add the input images.
function taskInput(request: ProviderRequestOf<ImageCapability>) {
  if (request.capability !== "text_to_image") return imageInputsTaskInput(imageInputsAsk(request));
  const input = request.input;
  return {
    ...imageTaskFields(input, canvasPixelSize(input.canvas.tier, input.canvas.aspect), input.output_relationship),
    ...(typeof input.reasoning === "boolean" ? { reasoning: input.reasoning } : {}),
  };
}

function outcomeOf(task: ImageTask, expected: number): ProviderOutcome {
  if (task.state !== "completed") return unfinishedOutcome(task);
  const images = task.result?.images ?? [];
  if (images.length !== expected || images.some((image) => !image.url)) {
    throw new ProviderFailure("model_request_failed", `vendor completed with ${images.length} images where ${expected} were asked for`, false);
  }
  return {
    status: "done",
    outputs: images.map((image) => ({ url: image.url as string, kind: "image" as const, format: (image.content_type ?? "image/png").replace("image/", "") })),
  };
}
