import type { ProviderEndpoint } from "../../config.js";
import { retryAfterMs, vendorFetch, type VendorResponse } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { pollDelayMs } from "../poll-delay.js";
import { textToVideoJob } from "../text-to-video-job.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../types.js";

// vendorA video generation (docs/providers/vendorA.md, "Video"): submit a task, query it until Success or Fail,
// then ask the files API for the download URL of the file the task produced. Like vendorA speech, vendor-side
// errors come back as HTTP 200 with a non-zero base_resp.status_code. A submitted task cannot be cancelled.

const SUBMIT_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 10_000;
// The query answer carries no timestamps, so the reference remembers when the task was submitted.
const REF_SEPARATOR = "@";

const RATE_LIMITED = 1002;
const BAD_CREDENTIALS = 1004;
const INPUT_FLAGGED = 1026;
const OUTPUT_BLOCKED = 1027;

// Stages have no percentage at this vendor. A task not yet Processing keeps the service's own "submitted"
// progress; a Processing one shows halfway, the most its stage says.
const WAITING_STAGES = ["Preparing", "Queueing"];
const PROCESSING_PERCENT = 50;

interface BaseResp {
  status_code?: number;
  status_msg?: string;
}

interface VendorAAnswer {
  base_resp?: BaseResp;
  task_id?: string;
  status?: string;
  file_id?: string;
  file?: { download_url?: string };
}

function failureOf(base: BaseResp, response: VendorResponse): ProviderFailure {
  const code = base.status_code;
  const message = base.status_msg ?? `HTTP ${response.status}`;
  if (response.status === 429 || code === RATE_LIMITED) {
    return new ProviderFailure("model_rate_limited", `vendor rate limit: ${message}`, true, retryAfterMs(response.headers));
  }
  if (response.status === 401 || response.status === 403 || code === BAD_CREDENTIALS) {
    return new ProviderFailure("model_unavailable", `vendor refused our credentials: ${message}`, false);
  }
  if (response.status >= 500) return new ProviderFailure("model_request_failed", `vendor error: ${message}`, true);
  if (code === INPUT_FLAGGED) return new ProviderFailure("safety_rejected", `vendor safety review: ${message}`, false);
  if (code === OUTPUT_BLOCKED) return new ProviderFailure("content_filtered", `vendor blocked the output: ${message}`, false);
  return new ProviderFailure("model_request_failed", `vendor error ${code ?? response.status}: ${message}`, false);
}

async function call(endpoint: ProviderEndpoint, path: string, signal: AbortSignal, body?: unknown): Promise<VendorAAnswer> {
  const response = await vendorFetch(
    `${endpoint.baseUrl}${path}`,
    {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${endpoint.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: body === undefined ? READ_TIMEOUT_MS : SUBMIT_TIMEOUT_MS,
    },
    signal,
  );
  const answer = jsonAnswer(response.text) as VendorAAnswer | undefined;
  if (typeof answer !== "object" || answer === null) {
    if (response.status !== 200) throw failureOf({}, response);
    // A garbled answer is treated like a 5xx: the vendor may answer properly next time.
    throw new ProviderFailure("model_request_failed", `vendor answered HTTP ${response.status} with a body that is not JSON`, true);
  }
  if (response.status !== 200 || answer.base_resp?.status_code !== 0) throw failureOf(answer.base_resp ?? {}, response);
  return answer;
}

export async function submitVendorAVideo(endpoint: ProviderEndpoint, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const job = textToVideoJob(request);
  const answer = await call(endpoint, "/v1/video_generation", signal, {
    model: job.model.id,
    prompt: job.prompt,
    duration: job.durationSeconds,
    resolution: job.resolution.toUpperCase(),
    aspect_ratio: job.aspectRatio,
    prompt_optimizer: job.enhancePrompt,
    aigc_watermark: job.watermark,
    ...(job.seed !== undefined ? { seed: job.seed } : {}),
  });
  if (!answer.task_id) throw new ProviderFailure("model_request_failed", "vendor accepted the task without a task_id", false);
  return { status: "pending", ref: `${answer.task_id}${REF_SEPARATOR}${Date.now()}`, pollAfterMs: pollDelayMs(undefined) };
}

export async function pollVendorAVideo(endpoint: ProviderEndpoint, ref: string, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const separator = ref.lastIndexOf(REF_SEPARATOR);
  const taskId = separator < 0 ? ref : ref.slice(0, separator);
  const submitted = separator < 0 ? undefined : new Date(Number(ref.slice(separator + 1)));
  const task = await call(endpoint, `/v1/query/video_generation?task_id=${encodeURIComponent(taskId)}`, signal);
  if (task.status !== undefined && WAITING_STAGES.includes(task.status)) return { status: "pending", ref, pollAfterMs: pollDelayMs(submitted) };
  if (task.status === "Processing") {
    return { status: "pending", ref, pollAfterMs: pollDelayMs(submitted), progress: { percent: PROCESSING_PERCENT, message: "Processing at vendorA" } };
  }
  // A failed task's reason arrives as a non-zero base_resp, which call() has already mapped.
  if (task.status === "Fail") throw new ProviderFailure("model_request_failed", "vendor reported the task failed without a reason", false);
  if (task.status !== "Success") {
    throw new ProviderFailure("model_request_failed", `vendor reported an undocumented task status ${JSON.stringify(task.status)}`, false);
  }
  if (!task.file_id) throw new ProviderFailure("model_request_failed", "vendor reported success without a file_id", false);
  const file = await call(endpoint, `/v1/files/retrieve?file_id=${encodeURIComponent(task.file_id)}`, signal);
  const url = file.file?.download_url;
  if (!url) throw new ProviderFailure("model_request_failed", "vendor's file record has no download_url", false);
  return { status: "done", outputs: [{ url, kind: "video", format: textToVideoJob(request).outputFormat }] };
}
