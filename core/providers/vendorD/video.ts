import { DEFAULT_VENDOR_IDS, vendorModelId } from "../../catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../config.js";
import { vendorFetch, type VendorResponse } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { pollDelayMs } from "../poll-delay.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../types.js";
import { videoJob, type VideoJobCapability } from "../video-job.js";
import { httpFailure, notJson, operationFailure, type RpcStatus } from "./failures.js";
import { predictionInstance } from "./video-instance.js";

// vendorD video generation and edit: the Gemini API's Veo calls (docs/providers/vendorD.md). Submission answers
// the operation's name; reading the name answers `done: false` until `done: true` with either a `response`
// (`generateVideoResponse`) or an `error`. The video is a file of the vendor's that needs the key to download.
// The reference offers no way to cancel an operation.

const API = "/v1beta";
const SUBMIT_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 10_000;

interface Operation {
  name?: string;
  done?: boolean;
  metadata?: { createTime?: string; progressPercent?: number };
  error?: RpcStatus;
  response?: {
    generateVideoResponse?: {
      generatedSamples?: { video?: { uri?: string } }[];
      raiMediaFilteredCount?: number;
      raiMediaFilteredReasons?: string[];
    };
  };
}

function call(endpoint: ProviderEndpoint, method: string, path: string, signal: AbortSignal, body?: unknown, timeoutMs = READ_TIMEOUT_MS) {
  return vendorFetch(
    `${endpoint.baseUrl}${API}/${path}`,
    {
      method,
      headers: { "x-goog-api-key": endpoint.apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs,
    },
    signal,
  );
}

function operationOf(response: VendorResponse): Operation {
  const body = jsonAnswer(response.text);
  if (response.status !== 200) throw httpFailure(response, body);
  if (typeof body !== "object" || body === null) throw notJson(response);
  return body as Operation;
}

// Operation names are paths ("models/m/operations/id"); each segment is escaped, the slashes kept.
function operationPath(name: string): string {
  return name.split("/").map(encodeURIComponent).join("/");
}

export async function submitVendorDVideo(endpoint: ProviderEndpoint, request: ProviderRequestOf<VideoJobCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const job = videoJob(request);
  const body = {
    instances: [await predictionInstance(job, signal)],
    parameters: {
      // Left out, the vendor's default (16:9) applies; the models whose clip follows its picture send none.
      ...(job.followsSource ? {} : { aspectRatio: job.aspectRatio }),
      resolution: job.resolution,
      durationSeconds: job.durationSeconds,
    },
  };
  const model = vendorModelId(endpoint.ids ?? DEFAULT_VENDOR_IDS.vendorD, job.model.id);
  const operation = operationOf(await call(endpoint, "POST", `models/${encodeURIComponent(model)}:predictLongRunning`, signal, body, SUBMIT_TIMEOUT_MS));
  if (!operation.name) throw new ProviderFailure("model_request_failed", "vendor started an operation without a name", false);
  return { status: "pending", ref: operation.name, pollAfterMs: pollDelayMs(undefined) };
}

export async function pollVendorDVideo(endpoint: ProviderEndpoint, ref: string, signal: AbortSignal): Promise<ProviderOutcome> {
  const operation = operationOf(await call(endpoint, "GET", operationPath(ref), signal));
  if (operation.done !== true) {
    const createTime = operation.metadata?.createTime;
    const pollAfterMs = pollDelayMs(createTime === undefined ? undefined : new Date(createTime));
    const percent = operation.metadata?.progressPercent;
    // Until the vendor gives a percentage the task keeps the service's own "submitted" progress.
    if (!percent) return { status: "pending", ref, pollAfterMs };
    return { status: "pending", ref, pollAfterMs, progress: { percent, message: "operation running at vendorD" } };
  }
  if (operation.error) throw operationFailure(operation.error);
  const response = operation.response?.generateVideoResponse;
  if (!response) throw new ProviderFailure("model_request_failed", "vendor finished the operation with neither a response nor an error", false);
  const uri = response.generatedSamples?.[0]?.video?.uri;
  // The file is the vendor's: its download takes the same key as every other call.
  if (uri) return { status: "done", outputs: [{ url: uri, kind: "video", format: "mp4", headers: { "x-goog-api-key": endpoint.apiKey } }] };
  if ((response.raiMediaFilteredCount ?? 0) > 0) {
    const reasons = response.raiMediaFilteredReasons?.join("; ") || "no reason given";
    throw new ProviderFailure("content_filtered", `vendor filtered the generated video: ${reasons}`, false);
  }
  throw new ProviderFailure("model_request_failed", "vendor finished the operation without a video", false);
}
