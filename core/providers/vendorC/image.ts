import { canvasPixelSize } from "../../catalog/canvas.js";
import { DEFAULT_VENDOR_IDS, vendorModelId } from "../../catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../config.js";
import { vendorFetch, type VendorResponse } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { pollDelayMs } from "../poll-delay.js";
import { imageInputsAsk, type ImageCapability } from "../image-inputs.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../types.js";
import type { VendorInputOf } from "../vendor-input.js";
import { httpFailure, notJson, taskFailure } from "./failures.js";
import { imageInputsSynthesisBody } from "./image-inputs.js";

// vendorC images on Model Studio's Wan 2.7 image generation and editing (docs/providers/vendorC-image.md; reference
// copy docs/providers/reference/vendorC-image-generation.json): one asynchronous call for text to image,
// image-to-image and edits, whose body is a user message of the text and the input images, created with
// `X-DashScope-Async: enable` and read at the family's task route until SUCCEEDED, FAILED or CANCELED. The vendor
// reports no progress figure, only the status. The vendorC adapter routes images here.

const SUBMIT_PATH = "/api/v1/services/aigc/image-generation/generation";
const TASKS_PATH = "/api/v1/tasks";
const SUBMIT_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 10_000;

interface JobAnswer {
  output?: {
    task_id?: string;
    task_status?: string;
    submit_time?: string;
    choices?: { message?: { content?: { type?: string; image?: string }[] } }[];
    code?: string;
    message?: string;
  };
}

function modelIdOf(endpoint: ProviderEndpoint, model: string): string {
  return vendorModelId(endpoint.ids ?? DEFAULT_VENDOR_IDS.vendorC, model);
}

export async function submitImageSynthesis(
  endpoint: ProviderEndpoint,
  request: ProviderRequestOf<ImageCapability>,
  signal: AbortSignal,
): Promise<ProviderOutcome> {
  const model = modelIdOf(endpoint, request.model);
  const response = await vendorFetch(
    `${endpoint.baseUrl}${SUBMIT_PATH}`,
    {
      method: "POST",
      headers: { authorization: `Bearer ${endpoint.apiKey}`, "content-type": "application/json", "x-dashscope-async": "enable" },
      body: JSON.stringify(request.capability === "text_to_image" ? textBody(model, request.input) : imageInputsSynthesisBody(model, imageInputsAsk(request))),
      timeoutMs: SUBMIT_TIMEOUT_MS,
    },
    signal,
  );
  return outcomeOf(answerOf(response), request.input.count);
}

export async function pollImageSynthesis(
  endpoint: ProviderEndpoint,
  ref: string,
  request: ProviderRequestOf<ImageCapability>,
  signal: AbortSignal,
): Promise<ProviderOutcome> {
  const response = await vendorFetch(
    `${endpoint.baseUrl}${TASKS_PATH}/${encodeURIComponent(ref)}`,
    { method: "GET", headers: { authorization: `Bearer ${endpoint.apiKey}` }, timeoutMs: READ_TIMEOUT_MS },
    signal,
  );
  return outcomeOf(answerOf(response), request.input.count);
}

// The vendor withdraws PENDING tasks only; a RUNNING one finishes at the vendor whatever the service does.
export async function cancelImageSynthesis(
  endpoint: ProviderEndpoint,
  ref: string,
  _request: ProviderRequestOf<ImageCapability>,
  signal: AbortSignal,
): Promise<void> {
  await vendorFetch(
    `${endpoint.baseUrl}${TASKS_PATH}/${encodeURIComponent(ref)}/cancel`,
    { method: "POST", headers: { authorization: `Bearer ${endpoint.apiKey}` }, timeoutMs: READ_TIMEOUT_MS },
    signal,
  );
}

function textBody(model: string, input: VendorInputOf<"text_to_image">) {
  const size = canvasPixelSize(input.canvas.tier, input.canvas.aspect);
  return {
    model,
    input: { messages: [{ role: "user", content: [{ text: input.prompt }] }] },
    parameters: {
      size: `${size.width}*${size.height}`,
      n: input.count,
      ...(input.output_relationship === "sequence" ? { enable_sequential: true } : {}),
      ...(input.negative_prompt !== undefined ? { negative_prompt: input.negative_prompt } : {}),
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      ...(typeof input.reasoning === "boolean" ? { thinking_mode: input.reasoning } : {}),
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

// The images of a finished task: every image item of every choice's message, in order.
function imageUrls(job: NonNullable<JobAnswer["output"]>): string[] {
  return (job.choices ?? []).flatMap((choice) =>
    (choice.message?.content ?? []).flatMap((item) => (item.type === "image" && typeof item.image === "string" ? [item.image] : [])),
  );
}

function outcomeOf(answer: JobAnswer, expected: number): ProviderOutcome {
  const job = answer.output ?? {};
  switch (job.task_status) {
    case "PENDING":
    case "RUNNING":
      if (!job.task_id) throw new ProviderFailure("model_request_failed", "vendor answered a task without its task_id", false);
      // No percentage from this vendor: the stage is all there is to show.
      return {
        status: "pending",
        ref: job.task_id,
        pollAfterMs: pollDelayMs(submittedAt(job.submit_time)),
        progress: { percent: job.task_status === "PENDING" ? 0 : 50, message: `${job.task_status} at vendorC` },
      };
    case "SUCCEEDED": {
      const urls = imageUrls(job);
      // The request is never split: fewer images than asked for fails the task rather than billing a partial set.
      if (urls.length !== expected) {
        throw new ProviderFailure("model_request_failed", `vendor succeeded with ${urls.length} images where ${expected} were asked for`, false);
      }
      return { status: "done", outputs: urls.map((url) => ({ url, kind: "image" as const, format: "png" })) };
    }
    case "FAILED":
      throw taskFailure(job);
    case "CANCELED":
      throw new ProviderFailure("model_request_failed", "vendor canceled the task on its side", false);
    case "UNKNOWN":
      throw new ProviderFailure("model_request_failed", "vendor no longer knows the task (UNKNOWN: expired or never created)", false);
    default:
      throw new ProviderFailure("model_request_failed", `vendor reported an undocumented task status ${JSON.stringify(job.task_status)}`, false);
  }
}
