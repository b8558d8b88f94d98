import type { ProviderEndpoint } from "../../config.js";
import { pollDelayMs } from "../poll-delay.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../types.js";
import { videoJob } from "../video-job.js";
import { callVendorA } from "./call.js";
import { videoMediaFields } from "./video-media.js";

// vendorA video generation from text, frames or subject references (docs/providers/vendorA.md, "Video"): submit a
// task, query it until Success or Fail, then ask the files API for the download URL of the file the task produced.
// Like vendorA speech, vendor-side errors come back as HTTP 200 with a non-zero base_resp.status_code. A submitted
// task cannot be cancelled.

const SUBMIT_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 10_000;
// The query answer carries no timestamps, so the reference remembers when the task was submitted.
const REF_SEPARATOR = "@";

// Stages have no percentage at this vendor. A task not yet Processing keeps the service's own "submitted"
// progress; a Processing one shows halfway, the most its stage says.
const WAITING_STAGES = ["Preparing", "Queueing"];
const PROCESSING_PERCENT = 50;

interface VendorAAnswer {
  base_resp?: { status_code?: number; status_msg?: string };
  task_id?: string;
  status?: string;
  file_id?: string;
  file?: { download_url?: string };
}

function call(endpoint: ProviderEndpoint, path: string, signal: AbortSignal, body?: unknown): Promise<VendorAAnswer> {
  return callVendorA<VendorAAnswer>(endpoint, path, signal, { body, timeoutMs: body === undefined ? READ_TIMEOUT_MS : SUBMIT_TIMEOUT_MS });
}

export async function submitVendorAVideo(endpoint: ProviderEndpoint, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const job = videoJob(request);
  const answer = await call(endpoint, "/v1/video_generation", signal, {
    model: job.model.id,
    ...(job.prompt !== undefined ? { prompt: job.prompt } : {}),
    ...videoMediaFields(job),
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
  return { status: "done", outputs: [{ url, kind: "video", format: videoJob(request).outputFormat }] };
}
