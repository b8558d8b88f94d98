import type { ImageGenerationInput } from "../../capabilities/images/generations.js";
import { canvasPixelSize } from "../../catalog/canvas.js";
import type { ProviderEndpoint } from "../../config.js";
import { vendorFetch, type VendorResponse } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { pollDelayMs } from "../poll-delay.js";
import { imageInputsAsk, isImageInputsCapability } from "../image-inputs.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../types.js";
import { httpFailure, notJson, taskFailure } from "./failures.js";
import { imageInputsSynthesisBody } from "./image-inputs.js";

// vendorC images (docs/providers/vendorC-image.md): an asynchronous synthesis job, created with
// `X-DashScope-Async: enable` and read by task id until SUCCEEDED, FAILED or CANCELED. The vendor reports no
// progress figure, only the status. Text to image is the text2image service; image-to-image and edits, which
// send input images, the image2image service, whose jobs read the same. The vendorC adapter routes images here.

// The service a job lives in: its submission, reads and cancel all go there.
function serviceOf(capability: string): string {
  return `/api/v1/services/aigc/${isImageInputsCapability(capability) ? "image2image" : "text2image"}`;
}
const SUBMIT_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 10_000;

interface JobAnswer {
  output?: {
    task_id?: string;
    task_status?: string;
    submit_time?: string;
    results?: { url?: string }[];
    code?: string;
    message?: string;
  };
}

export async function submitImageSynthesis(endpoint: ProviderEndpoint, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const input = request.input as unknown as ImageGenerationInput;
  const response = await vendorFetch(
    `${endpoint.baseUrl}${serviceOf(request.capability)}/image-synthesis`,
    {
      method: "POST",
      headers: { authorization: `Bearer ${endpoint.apiKey}`, "content-type": "application/json", "x-dashscope-async": "enable" },
      body: JSON.stringify(
        isImageInputsCapability(request.capability) ? imageInputsSynthesisBody(request.model, imageInputsAsk(request)) : synthesisBody(request.model, input),
      ),
      timeoutMs: SUBMIT_TIMEOUT_MS,
    },
    signal,
  );
  return outcomeOf(answerOf(response), input.count);
}

export async function pollImageSynthesis(endpoint: ProviderEndpoint, ref: string, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const input = request.input as unknown as ImageGenerationInput;
  const response = await vendorFetch(
    `${endpoint.baseUrl}${serviceOf(request.capability)}/tasks/${encodeURIComponent(ref)}`,
    { method: "GET", headers: { authorization: `Bearer ${endpoint.apiKey}` }, timeoutMs: READ_TIMEOUT_MS },
    signal,
  );
  return outcomeOf(answerOf(response), input.count);
}

// The vendor withdraws PENDING jobs only; a RUNNING one finishes at the vendor whatever the service does.
export async function cancelImageSynthesis(endpoint: ProviderEndpoint, ref: string, request: ProviderRequest, signal: AbortSignal): Promise<void> {
  await vendorFetch(
    `${endpoint.baseUrl}${serviceOf(request.capability)}/tasks/${encodeURIComponent(ref)}/cancel`,
    { method: "POST", headers: { authorization: `Bearer ${endpoint.apiKey}` }, timeoutMs: READ_TIMEOUT_MS },
    signal,
  );
}

function synthesisBody(model: string, input: ImageGenerationInput) {
  const size = canvasPixelSize(input.canvas.tier, input.canvas.aspect);
  return {
    model,
    input: { prompt: input.prompt, ...(input.negative_prompt !== undefined ? { negative_prompt: input.negative_prompt } : {}) },
    parameters: {
      size: `${size.width}*${size.height}`,
      n: input.count,
      sequential: input.output_relationship === "sequence",
      // vendorC rewrites prompts unless told not to; SPEC.md keeps the prompt as written unless asked.
      prompt_extend: input.enhance_prompt === true,
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      ...(typeof input.reasoning === "boolean" ? { reasoning: input.reasoning } : {}),
    },
  };
}

function answerOf(response: VendorResponse): JobAnswer {
  const body = jsonAnswer(response.text);
  if (response.status !== 200) throw httpFailure(response, body);
  if (typeof body !== "object" || body === null) throw notJson(response);
  return body as JobAnswer;
}

// vendorC writes times as "2025-01-01 12:00:00.000" in UTC.
function submittedAt(value: string | undefined): Date | undefined {
  return value === undefined ? undefined : new Date(`${value.replace(" ", "T")}Z`);
}

function outcomeOf(answer: JobAnswer, expected: number): ProviderOutcome {
  const job = answer.output ?? {};
  switch (job.task_status) {
    case "PENDING":
    case "RUNNING":
      if (!job.task_id) throw new ProviderFailure("model_request_failed", "vendor answered a job without its task_id", false);
      // No percentage from this vendor: the stage is all there is to show.
      return {
        status: "pending",
        ref: job.task_id,
        pollAfterMs: pollDelayMs(submittedAt(job.submit_time)),
        progress: { percent: job.task_status === "PENDING" ? 0 : 50, message: `${job.task_status} at vendorC` },
      };
    case "SUCCEEDED": {
      const urls = (job.results ?? []).map((result) => result.url).filter((url): url is string => typeof url === "string");
      // The request is never split: fewer images than asked for fails the task rather than billing a partial set.
      if (urls.length !== expected) {
        throw new ProviderFailure("model_request_failed", `vendor succeeded with ${urls.length} images where ${expected} were asked for`, false);
      }
      return { status: "done", outputs: urls.map((url) => ({ url, kind: "image" as const, format: "png" })) };
    }
    case "FAILED":
      throw taskFailure(job);
    case "CANCELED":
      throw new ProviderFailure("model_request_failed", "vendor canceled the job on its side", false);
    case "UNKNOWN":
      throw new ProviderFailure("model_request_failed", "vendor no longer knows the job (UNKNOWN: expired or never created)", false);
    default:
      throw new ProviderFailure("model_request_failed", `vendor reported an undocumented job status ${JSON.stringify(job.task_status)}`, false);
  }
}
