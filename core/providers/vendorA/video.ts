import type { ProviderEndpoint } from "../../config.js";
import { bearerJsonCall, type VendorResponse } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { pollDelayMs } from "../poll-delay.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../types.js";
import { videoJob, type VideoJob } from "../video-job.js";
import { vendorAAnswer, vendorAModelId } from "./call.js";
import { videoMediaFields } from "./video-media.js";

// vendorA video generation through the vendor's Video Generation V2 (docs/providers/vendorA.md, "Video";
// reference copy docs/providers/reference/vendorA-video-generation-v2.json): submit a task whose `content` holds
// the text and every input by URL with its role, then read it until it succeeded, which gives the video's URL.
// A submitted task is not cancelled: the adapter offers no cancel, so the vendor's task runs out.

const SUBMIT_PATH = "/v2/video_generation";
const QUERY_PATH = "/v2/query/video_generation";
const SUBMIT_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 10_000;
// The ref keeps the submission time beside the task id, so the next read can be timed by the task's age.
const REF_SEPARATOR = "@";
const RUNNING_PERCENT = 50;
// HTTP 422: the vendor's content review refused the prompt or the media.
const UNPROCESSABLE = 422;
// A failed task's error.code, as the vendor's other calls number them.
const INPUT_FLAGGED = "1026";
const OUTPUT_BLOCKED = "1027";

interface VideoTask {
  id?: string;
  status?: string;
  error?: { code?: string | number; message?: string };
  content?: { url?: string };
}

interface V2Answer {
  base_resp?: { status_code?: number; status_msg?: string };
  task_id?: string;
  task?: VideoTask;
  error?: { code?: string | number; message?: string };
}

// A V2 answer: success is a body without a non-zero base_resp; a refusal is either the family's base_resp or an
// HTTP error whose body names it in `error`, which the family's mapping reads as a base_resp.
function answerOf(response: VendorResponse): V2Answer {
  const body = jsonAnswer(response.text) as V2Answer | undefined;
  const error = typeof body === "object" && body !== null && body.base_resp === undefined ? body.error : undefined;
  const message = error?.message ?? `HTTP ${response.status}`;
  if (response.status === UNPROCESSABLE) throw new ProviderFailure("safety_rejected", `vendor content review: ${message}`, false);
  if (response.status !== 200 && error !== undefined) {
    const text = JSON.stringify({ base_resp: { status_code: Number(error.code) || undefined, status_msg: message } });
    return vendorAAnswer<V2Answer>({ ...response, text }, true);
  }
  return vendorAAnswer<V2Answer>(response, true);
}

async function call(endpoint: ProviderEndpoint, path: string, signal: AbortSignal, body?: unknown): Promise<V2Answer> {
  const timeoutMs = body === undefined ? READ_TIMEOUT_MS : SUBMIT_TIMEOUT_MS;
  return answerOf(await bearerJsonCall(endpoint, path, signal, { body, timeoutMs }));
}

// The capabilities V2 serves: generation from text, a first frame, frames or references (no edit, no extension).
export type VendorAVideoCapability = "text_to_video" | "image_to_video" | "frames_to_video" | "reference_to_video";

// The vendor takes a ratio for every task, or `adaptive` to follow the media. A request that names none keeps the
// card's default for text alone, and follows its frames or references otherwise.
function ratioOf(job: VideoJob, request: ProviderRequestOf<VendorAVideoCapability>): string {
  const asked = request.input.aspect_ratio;
  if (asked !== undefined) return asked;
  return job.capability === "text_to_video" ? job.aspectRatio : "adaptive";
}

export async function submitVendorAVideo(endpoint: ProviderEndpoint, request: ProviderRequestOf<VendorAVideoCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const job = videoJob(request);
  const answer = await call(endpoint, SUBMIT_PATH, signal, {
    model: vendorAModelId(endpoint, job.model.id),
    ...videoMediaFields(job),
    resolution: job.resolution.toUpperCase(),
    duration: job.durationSeconds,
    ratio: ratioOf(job, request),
  });
  if (!answer.task_id) throw new ProviderFailure("model_request_failed", "vendor accepted the task without a task_id", false);
  return { status: "pending", ref: `${answer.task_id}${REF_SEPARATOR}${Date.now()}`, pollAfterMs: pollDelayMs(undefined) };
}

function failureOf(task: VideoTask): ProviderFailure {
  const code = task.error?.code === undefined ? undefined : String(task.error.code);
  const message = task.error?.message ?? `the task ${task.status ?? "ended"} without a reason`;
  if (code === INPUT_FLAGGED) return new ProviderFailure("safety_rejected", `vendor safety review: ${message}`, false);
  if (code === OUTPUT_BLOCKED) return new ProviderFailure("content_filtered", `vendor blocked the output: ${message}`, false);
  return new ProviderFailure("model_request_failed", `vendor task ${task.status ?? ""}${code ? ` (${code})` : ""}: ${message}`, false);
}

export async function pollVendorAVideo(endpoint: ProviderEndpoint, ref: string, request: ProviderRequestOf<VendorAVideoCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const separator = ref.lastIndexOf(REF_SEPARATOR);
  const taskId = separator < 0 ? ref : ref.slice(0, separator);
  const submitted = separator < 0 ? undefined : new Date(Number(ref.slice(separator + 1)));
  const task = (await call(endpoint, `${QUERY_PATH}/${encodeURIComponent(taskId)}`, signal)).task ?? {};
  switch (task.status) {
    case "queued":
      return { status: "pending", ref, pollAfterMs: pollDelayMs(submitted) };
    case "running":
      return { status: "pending", ref, pollAfterMs: pollDelayMs(submitted), progress: { percent: RUNNING_PERCENT, message: "running at vendorA" } };
    case "succeeded": {
      const url = task.content?.url;
      if (!url) throw new ProviderFailure("model_request_failed", "vendor reported success without content.url", false);
      return { status: "done", outputs: [{ url, kind: "video", format: videoJob(request).outputFormat }] };
    }
    case "failed":
    case "cancelled":
    case "expired":
      throw failureOf(task);
    default:
      throw new ProviderFailure("model_request_failed", `vendor reported an undocumented task status ${JSON.stringify(task.status)}`, false);
  }
}
