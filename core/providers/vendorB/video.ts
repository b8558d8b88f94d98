import type { ProviderEndpoint } from "../../config.js";
import { vendorFetch, type VendorResponse } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { pollDelayMs } from "../poll-delay.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { ProviderFailure, type ProviderOutcome, type ProviderOutput } from "../types.js";
import { videoJob, type VideoJobCapability } from "../video-job.js";
import { errorOf, httpFailure, jobFailure, notJson } from "./failures.js";
import { vendorModelId } from "../../catalog/vendor-ids.js";
import { videoContent } from "./video-content.js";

// vendorB video generation, edit and extension (docs/providers/vendorB.md): create a generation task, then read
// it until it is `succeeded`, `failed`, `cancelled` or `expired`; a task can be cancelled while it waits. The
// reference has no container field: every task's video is MP4, and no vendorB model offers another.

const TASKS_PATH = "/api/v3/contents/generations/tasks";
const SUBMIT_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 10_000;

interface GenerationTask {
  id?: string;
  status?: string;
  error?: { code?: string; message?: string } | null;
  content?: { video_url?: string; last_frame_url?: string };
  created_at?: number;
}

function call(endpoint: ProviderEndpoint, method: string, path: string, signal: AbortSignal, body?: unknown, timeoutMs = READ_TIMEOUT_MS) {
  return vendorFetch(
    `${endpoint.baseUrl}${path}`,
    {
      method,
      headers: { authorization: `Bearer ${endpoint.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs,
    },
    signal,
  );
}

// The JSON of a 200 answer; any other answer becomes the mapped failure.
function answerOf(response: VendorResponse): GenerationTask {
  const body = jsonAnswer(response.text);
  if (response.status !== 200) throw httpFailure(response, body);
  if (typeof body !== "object" || body === null) throw notJson(response);
  return body as GenerationTask;
}

export async function submitVendorBVideo(endpoint: ProviderEndpoint, request: ProviderRequestOf<VideoJobCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const job = videoJob(request);
  const body = {
    model: vendorModelId(endpoint.ids, job.model.id),
    content: videoContent(job),
    resolution: job.resolution,
    // `adaptive` asks the vendor for the ratio of the source picture, which it reads from the media itself.
    ratio: job.followsSource ? "adaptive" : job.aspectRatio,
    duration: job.durationSeconds,
    watermark: job.watermark,
    generate_audio: job.generateAudio,
    return_last_frame: job.returnLastFrame,
    ...(job.seed !== undefined ? { seed: job.seed } : {}),
    ...(job.webSearch ? { tools: [{ type: "web_search" }] } : {}),
  };
  const created = answerOf(await call(endpoint, "POST", TASKS_PATH, signal, body, SUBMIT_TIMEOUT_MS));
  if (!created.id) throw new ProviderFailure("model_request_failed", "vendor accepted the task without an id", false);
  return { status: "pending", ref: created.id, pollAfterMs: pollDelayMs(undefined) };
}

export async function pollVendorBVideo(endpoint: ProviderEndpoint, ref: string, request: ProviderRequestOf<VideoJobCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const task = answerOf(await call(endpoint, "GET", `${TASKS_PATH}/${encodeURIComponent(ref)}`, signal));
  switch (task.status) {
    case "queued":
    case "running":
      // The task reads no percentage: the service keeps its own "submitted" progress meanwhile.
      return { status: "pending", ref, pollAfterMs: pollDelayMs(task.created_at === undefined ? undefined : new Date(task.created_at * 1000)) };
    case "succeeded":
      return { status: "done", outputs: outputsOf(task, request) };
    case "failed":
      throw jobFailure(errorOf(task));
    case "cancelled":
      throw new ProviderFailure("model_request_failed", "vendor cancelled the job without being asked to", false);
    case "expired":
      // The vendor gave up on a task that outlived its execution_expires_after (48 hours by default).
      throw new ProviderFailure("model_timeout", "the task expired at the vendor before it ran", false);
    default:
      throw new ProviderFailure("model_request_failed", `vendor reported an undocumented task status ${JSON.stringify(task.status)}`, false);
  }
}

function outputsOf(task: GenerationTask, request: ProviderRequestOf<VideoJobCapability>): ProviderOutput[] {
  const video = task.content?.video_url;
  if (!video) throw new ProviderFailure("model_request_failed", "vendor reported success without a video_url", false);
  const job = videoJob(request);
  const outputs: ProviderOutput[] = [{ url: video, kind: "video", format: "mp4" }];
  const lastFrame = task.content?.last_frame_url;
  if (lastFrame && job.returnLastFrame) outputs.push({ url: lastFrame, kind: "image", format: "png", role: "last_frame" });
  return outputs;
}

export async function cancelVendorBVideo(endpoint: ProviderEndpoint, ref: string, signal: AbortSignal): Promise<void> {
  const response = await call(endpoint, "DELETE", `${TASKS_PATH}/${encodeURIComponent(ref)}`, signal);
  if (response.status !== 200) throw httpFailure(response, jsonAnswer(response.text));
}
