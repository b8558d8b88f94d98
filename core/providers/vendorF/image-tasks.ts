import type { ImageGenerationInput } from "../../capabilities/images/generations.js";
import { canvasPixelSize } from "../../catalog/canvas.js";
import type { ProviderEndpoint } from "../../config.js";
import { retryAfterMs, vendorFetch, type VendorResponse } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../types.js";

// vendorF's task API (docs/providers/vendorF.md): create a task, then read it until it is completed, failed or
// canceled. Each read reports how far along the task is and when to look again.

// Creating or reading a task is bookkeeping at the vendor; the rendering happens between reads.
const CALL_TIMEOUT_MS = 30_000;
const DEFAULT_POLL_AFTER_MS = 2_000;

interface ImageTask {
  task_id?: string;
  state?: string;
  progress_percent?: number;
  poll_after_ms?: number;
  result?: { images?: { url?: string; content_type?: string }[] };
  error?: { type?: string; detail?: string };
}

interface VendorError {
  error_type?: string;
  detail?: string;
}

export async function createImageTask(endpoint: ProviderEndpoint, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const input = request.input as unknown as ImageGenerationInput;
  const response = await call(endpoint, "POST", "/v2/image-tasks", signal, { model: request.model, input: taskInput(input) });
  return outcomeOf(readTask(response, "create"), input.count);
}

export async function readImageTask(endpoint: ProviderEndpoint, ref: string, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const input = request.input as unknown as ImageGenerationInput;
  const response = await call(endpoint, "GET", `/v2/image-tasks/${encodeURIComponent(ref)}`, signal);
  return outcomeOf(readTask(response, "read"), input.count);
}

// A task that has already finished cannot be canceled (409); the service ends its own task either way.
export async function cancelImageTask(endpoint: ProviderEndpoint, ref: string, signal: AbortSignal): Promise<void> {
  await call(endpoint, "POST", `/v2/image-tasks/${encodeURIComponent(ref)}/cancel`, signal);
}

function taskInput(input: ImageGenerationInput) {
  return {
    prompt: input.prompt,
    num_images: input.count,
    image_size: canvasPixelSize(input.canvas.tier, input.canvas.aspect),
    sequential: input.output_relationship === "sequence",
    enable_prompt_expansion: input.enhance_prompt === true,
    ...(input.seed !== undefined ? { seed: input.seed } : {}),
    ...(input.negative_prompt !== undefined ? { negative_prompt: input.negative_prompt } : {}),
    ...(typeof input.reasoning === "boolean" ? { reasoning: input.reasoning } : {}),
    ...(input.palette ? { palette: input.palette.map((item) => ({ color: item.color, weight: item.weight })) } : {}),
  };
}

function call(endpoint: ProviderEndpoint, method: string, path: string, signal: AbortSignal, body?: unknown): Promise<VendorResponse> {
  return vendorFetch(
    `${endpoint.baseUrl}${path}`,
    {
      method,
      headers: { authorization: `Key ${endpoint.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      timeoutMs: CALL_TIMEOUT_MS,
    },
    signal,
  );
}

function readTask(response: VendorResponse, step: "create" | "read"): ImageTask {
  const body = jsonAnswer(response.text);
  const answer = (typeof body === "object" && body !== null ? body : {}) as ImageTask & VendorError;
  const succeeded = response.status >= 200 && response.status < 300;
  if (succeeded && answer !== body) {
    // A cut-off answer is treated like a 5xx: the vendor may answer properly next time.
    throw new ProviderFailure("model_request_failed", `vendor answered HTTP ${response.status} with a body that is not JSON`, true);
  }
  if (succeeded) return answer;
  const message = `${answer.error_type ?? `HTTP ${response.status}`}: ${answer.detail ?? "no detail"}`;
  if (response.status === 429) throw new ProviderFailure("model_rate_limited", `vendor rate limit: ${message}`, true, retryAfterMs(response.headers));
  if (response.status >= 500) throw new ProviderFailure("model_request_failed", `vendor error: ${message}`, true);
  if (response.status === 401 || response.status === 403 || (step === "create" && response.status === 404)) {
    throw new ProviderFailure("model_unavailable", `vendor does not serve this model to us: ${message}`, false);
  }
  if (answer.error_type === "content_policy_violation") throw new ProviderFailure("safety_rejected", `vendor content policy: ${answer.detail}`, false);
  throw new ProviderFailure("model_request_failed", `vendor refused to ${step} the task: ${message}`, false);
}

function outcomeOf(task: ImageTask, expected: number): ProviderOutcome {
  switch (task.state) {
    case "queued":
    case "in_progress": {
      if (!task.task_id) throw new ProviderFailure("model_request_failed", "vendor answered a task without its task_id", false);
      const percent = Math.max(0, Math.min(99, Math.round(task.progress_percent ?? 0)));
      return {
        status: "pending",
        ref: task.task_id,
        pollAfterMs: task.poll_after_ms ?? DEFAULT_POLL_AFTER_MS,
        progress: { percent, message: `vendorF task ${task.state}, ${percent}%` },
      };
    }
    case "completed": {
      const images = task.result?.images ?? [];
      if (images.length !== expected || images.some((image) => !image.url)) {
        throw new ProviderFailure("model_request_failed", `vendor completed with ${images.length} images where ${expected} were asked for`, false);
      }
      return {
        status: "done",
        outputs: images.map((image) => ({ url: image.url as string, kind: "image" as const, format: (image.content_type ?? "image/png").replace("image/", "") })),
      };
    }
    case "failed": {
      const detail = `${task.error?.type ?? "failed"}: ${task.error?.detail ?? "no detail"}`;
      if (task.error?.type === "content_moderated") throw new ProviderFailure("content_filtered", `vendor output moderation: ${task.error.detail}`, false);
      if (task.error?.type === "timeout") throw new ProviderFailure("model_timeout", `vendor task timed out: ${detail}`, false);
      throw new ProviderFailure("model_request_failed", `vendor task failed: ${detail}`, false);
    }
    case "canceled":
      throw new ProviderFailure("model_request_failed", "vendor canceled the task on its side", false);
    default:
      throw new ProviderFailure("model_request_failed", `vendor reported an undocumented task state ${JSON.stringify(task.state)}`, false);
  }
}
