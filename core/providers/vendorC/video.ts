import type { ProviderEndpoint } from "../../config.js";
import { vendorFetch, type VendorResponse } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { pollDelayMs } from "../poll-delay.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { ProviderFailure, type ProviderOutcome, type ProviderOutput } from "../types.js";
import { vendorModelId } from "../../catalog/vendor-ids.js";
import { videoJob, type VideoJobCapability } from "../video-job.js";
import { httpFailure, notJson, taskFailure } from "./failures.js";
import { reworkParameters, synthesisMedia } from "./video-input.js";

// vendorC video synthesis, edit and extension as Model Studio's Wan 2.7 references define them
// (docs/providers/vendorC.md): an asynchronous submission answers a task id, and the task is read until SUCCEEDED
// or FAILED. No progress is reported and a task cannot be cancelled once running.

const SYNTHESIS_PATH = "/api/v1/services/aigc/video-generation/video-synthesis";
const TASKS_PATH = "/api/v1/tasks";
const SUBMIT_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 10_000;
const RUNNING_PERCENT = 50;

interface TaskAnswer {
  output?: {
    task_id?: string;
    task_status?: string;
    submit_time?: string;
    video_url?: string;
    last_frame_url?: string;
    code?: string;
    message?: string;
  };
}

function headers(endpoint: ProviderEndpoint): Record<string, string> {
  return { authorization: `Bearer ${endpoint.apiKey}` };
}

function answerOf(response: VendorResponse): TaskAnswer {
  const body = jsonAnswer(response.text);
  if (response.status !== 200) throw httpFailure(response, body);
  if (typeof body !== "object" || body === null) throw notJson(response);
  return body as TaskAnswer;
}

// vendorC writes times as "2025-01-01 12:00:00.000" in UTC.
function submittedAt(value: string | undefined): Date | undefined {
  return value === undefined ? undefined : new Date(`${value.replace(" ", "T")}Z`);
}

export async function submitVendorCVideo(endpoint: ProviderEndpoint, request: ProviderRequestOf<VideoJobCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const job = videoJob(request);
  const parameters = {
    resolution: job.resolution.toUpperCase(),
    // A clip that follows its first frame or source video takes that ratio at the vendor; only a chosen one is sent.
    ...(job.followsSource ? {} : { ratio: job.aspectRatio }),
    duration: job.durationSeconds,
    // vendorC rewrites prompts unless told not to; SPEC.md keeps the prompt as written unless asked.
    prompt_extend: job.enhancePrompt,
    watermark: job.watermark,
    ...(job.seed !== undefined ? { seed: job.seed } : {}),
    // Wan 2.7 adds sound unless told not to; the catalog's silent models are kept silent.
    audio: job.generateAudio,
    // Not in the reference: the last frame and MOV that only vendorC3.0-video-prime offers.
    ...(job.returnLastFrame ? { return_last_frame: true } : {}),
    ...(job.outputFormat !== "mp4" ? { format: job.outputFormat } : {}),
    ...reworkParameters(job),
  };
  const media = synthesisMedia(job);
  const body = {
    model: vendorModelId(endpoint.ids, job.model.id),
    input: {
      ...(job.prompt !== undefined ? { prompt: job.prompt } : {}),
      ...(job.negativePrompt !== undefined ? { negative_prompt: job.negativePrompt } : {}),
      ...(media.length > 0 ? { media } : {}),
    },
    parameters,
  };
  const response = await vendorFetch(
    `${endpoint.baseUrl}${SYNTHESIS_PATH}`,
    {
      method: "POST",
      headers: { ...headers(endpoint), "content-type": "application/json", "x-dashscope-async": "enable" },
      body: JSON.stringify(body),
      timeoutMs: SUBMIT_TIMEOUT_MS,
    },
    signal,
  );
  const taskId = answerOf(response).output?.task_id;
  if (!taskId) throw new ProviderFailure("model_request_failed", "vendor accepted the task without a task_id", false);
  return { status: "pending", ref: taskId, pollAfterMs: pollDelayMs(undefined) };
}

export async function pollVendorCVideo(endpoint: ProviderEndpoint, ref: string, request: ProviderRequestOf<VideoJobCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const response = await vendorFetch(
    `${endpoint.baseUrl}${TASKS_PATH}/${encodeURIComponent(ref)}`,
    { method: "GET", headers: headers(endpoint), timeoutMs: READ_TIMEOUT_MS },
    signal,
  );
  const output = answerOf(response).output ?? {};
  switch (output.task_status) {
    case "PENDING":
      return { status: "pending", ref, pollAfterMs: pollDelayMs(submittedAt(output.submit_time)) };
    case "RUNNING":
      // No percentage from this vendor: a running task shows halfway, the most its stage says.
      return {
        status: "pending",
        ref,
        pollAfterMs: pollDelayMs(submittedAt(output.submit_time)),
        progress: { percent: RUNNING_PERCENT, message: "RUNNING at vendorC" },
      };
    case "SUCCEEDED":
      return { status: "done", outputs: outputsOf(output, request) };
    case "FAILED":
      throw taskFailure(output);
    case "UNKNOWN":
      throw new ProviderFailure("model_request_failed", "vendor no longer knows the task (UNKNOWN: expired or never created)", false);
    default:
      throw new ProviderFailure("model_request_failed", `vendor reported an undocumented task_status ${JSON.stringify(output.task_status)}`, false);
  }
}

function outputsOf(output: NonNullable<TaskAnswer["output"]>, request: ProviderRequestOf<VideoJobCapability>): ProviderOutput[] {
  if (!output.video_url) throw new ProviderFailure("model_request_failed", "vendor reported success without a video_url", false);
  const job = videoJob(request);
  const outputs: ProviderOutput[] = [{ url: output.video_url, kind: "video", format: job.outputFormat }];
  if (job.returnLastFrame && output.last_frame_url) outputs.push({ url: output.last_frame_url, kind: "image", format: "png", role: "last_frame" });
  return outputs;
}
