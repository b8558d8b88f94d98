import type { ProviderEndpoint } from "../../config.js";
import { vendorFetch, type VendorResponse } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { pollDelayMs } from "../poll-delay.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../types.js";
import { videoJob } from "../video-job.js";
import { httpFailure, notJson, operationFailure, type RpcStatus } from "./failures.js";
import { predictionInstance } from "./video-instance.js";

// vendorD video generation and edit (docs/providers/vendorD.md): a long-running operation. Submission answers the
// operation's name; reading the name answers `done: false` with progress metadata until `done: true` with either a
// `response` or an `error`. An operation can be cancelled.

const API = "/v1beta";
const SUBMIT_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 10_000;

interface Operation {
  name?: string;
  done?: boolean;
  metadata?: { createTime?: string; progressPercent?: number };
  error?: RpcStatus;
  response?: {
    generatedSamples?: { video?: { uri?: string; mimeType?: string } }[];
    raiMediaFilteredCount?: number;
    raiMediaFilteredReasons?: string[];
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

export async function submitVendorDVideo(endpoint: ProviderEndpoint, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const job = videoJob(request);
  const body = {
    instances: [predictionInstance(job)],
    parameters: {
      // Without an aspectRatio the vendor keeps the ratio of the image or video it is given.
      ...(job.followsSource ? {} : { aspectRatio: job.aspectRatio }),
      resolution: job.resolution,
      durationSeconds: job.durationSeconds,
      generateAudio: job.generateAudio,
      sampleCount: 1,
    },
  };
  const operation = operationOf(await call(endpoint, "POST", `models/${encodeURIComponent(job.model.id)}:predictLongRunning`, signal, body, SUBMIT_TIMEOUT_MS));
  if (!operation.name) throw new ProviderFailure("model_request_failed", "vendor started an operation without a name", false);
  return { status: "pending", ref: operation.name, pollAfterMs: pollDelayMs(undefined) };
}

export async function pollVendorDVideo(endpoint: ProviderEndpoint, ref: string, _request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
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
  const response = operation.response;
  if (!response) throw new ProviderFailure("model_request_failed", "vendor finished the operation with neither a response nor an error", false);
  const uri = response.generatedSamples?.[0]?.video?.uri;
  if (uri) return { status: "done", outputs: [{ url: uri, kind: "video", format: "mp4" }] };
  if ((response.raiMediaFilteredCount ?? 0) > 0) {
    const reasons = response.raiMediaFilteredReasons?.join("; ") || "no reason given";
    throw new ProviderFailure("content_filtered", `vendor filtered the generated video: ${reasons}`, false);
  }
  throw new ProviderFailure("model_request_failed", "vendor finished the operation without a video", false);
}

export async function cancelVendorDVideo(endpoint: ProviderEndpoint, ref: string, signal: AbortSignal): Promise<void> {
  const response = await call(endpoint, "POST", `${operationPath(ref)}:cancel`, signal, {});
  if (response.status !== 200) throw httpFailure(response, jsonAnswer(response.text));
}
