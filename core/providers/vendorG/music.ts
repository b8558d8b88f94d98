import type { ProviderEndpoint } from "../../config.js";
import { musicJob, type MusicJob } from "../music-job.js";
import { pollDelayMs } from "../poll-delay.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../types.js";
import { callVendorG } from "./call.js";

// vendorG music (docs/providers/vendorG.md): submit a generation task (upload-cover for reference audio), then
// read it until SUCCESS; every task makes two tracks. In custom mode, which lyrics or `custom_mode: true` turn
// on (SPEC.md: the prompt then maps to the style field), `style` carries our prompt and `prompt` the lyrics.

const SUBMIT_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 10_000;

// The vendor's task vocabulary. Stages a task goes through, with the progress each one shows (none while
// PENDING: the task keeps the service's own figure); and failures, with the public code each one means.
const STAGES: Record<string, { percent: number; message: string } | null> = {
  PENDING: null,
  TEXT_SUCCESS: { percent: 40, message: "lyrics written at vendorG" },
  FIRST_SUCCESS: { percent: 70, message: "first track ready at vendorG" },
};
const FAILURES: Record<string, "content_filtered" | "model_request_failed"> = {
  SENSITIVE_WORD_ERROR: "content_filtered",
  CREATE_TASK_FAILED: "model_request_failed",
  GENERATE_AUDIO_FAILED: "model_request_failed",
};

interface RecordInfo {
  taskId?: string;
  status?: string;
  createTime?: number;
  response?: { tracks?: { audioUrl?: string; title?: string; lyrics?: string | null }[] } | null;
  errorCode?: number | null;
  errorMessage?: string | null;
}

function submissionOf(job: MusicJob) {
  const options = job.model_options?.vendorG ?? {};
  const custom = options.custom_mode ?? (job.lyrics !== undefined);
  return {
    model: job.model.id,
    customMode: custom,
    instrumental: job.instrumental,
    ...(custom ? { style: job.prompt, ...(job.lyrics !== undefined ? { prompt: job.lyrics } : {}) } : { prompt: job.prompt }),
    ...(job.title !== undefined ? { title: job.title } : {}),
    ...(options.negative_tags !== undefined ? { negativeTags: options.negative_tags } : {}),
    ...(options.vocal_gender !== undefined ? { vocalGender: options.vocal_gender } : {}),
    ...(options.style_weight !== undefined ? { styleWeight: options.style_weight } : {}),
    ...(options.weirdness_constraint !== undefined ? { weirdnessConstraint: options.weirdness_constraint } : {}),
    ...(options.audio_weight !== undefined ? { audioWeight: options.audio_weight } : {}),
    ...(job.reference ? { uploadUrl: job.reference.url } : {}),
  };
}

export async function submitVendorGMusic(endpoint: ProviderEndpoint, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const job = musicJob(request);
  const path = job.reference ? "/api/v1/generate/upload-cover" : "/api/v1/generate";
  const data = await callVendorG<{ taskId?: string }>(endpoint, path, signal, { body: submissionOf(job), timeoutMs: SUBMIT_TIMEOUT_MS });
  if (!data.taskId) throw new ProviderFailure("model_request_failed", "vendor accepted the task without a taskId", false);
  return { status: "pending", ref: data.taskId, pollAfterMs: pollDelayMs(undefined) };
}

export async function pollVendorGMusic(endpoint: ProviderEndpoint, ref: string, signal: AbortSignal): Promise<ProviderOutcome> {
  const task = await callVendorG<RecordInfo>(endpoint, `/api/v1/generate/record-info?taskId=${encodeURIComponent(ref)}`, signal, {
    timeoutMs: READ_TIMEOUT_MS,
  });
  const status = task.status ?? "";
  const submitted = task.createTime === undefined ? undefined : new Date(task.createTime);
  if (Object.hasOwn(STAGES, status)) {
    const stage = STAGES[status];
    return { status: "pending", ref, pollAfterMs: pollDelayMs(submitted), ...(stage ? { progress: stage } : {}) };
  }
  const failure = Object.hasOwn(FAILURES, status) ? FAILURES[status] : undefined;
  if (failure) {
    throw new ProviderFailure(failure, `vendor reported ${status}: ${task.errorMessage ?? "no reason given"} (${String(task.errorCode)})`, false);
  }
  if (status !== "SUCCESS") throw new ProviderFailure("model_request_failed", `vendor reported an undocumented task status ${JSON.stringify(status)}`, false);
  const tracks = task.response?.tracks ?? [];
  const urls = tracks.map((track) => track.audioUrl);
  if (urls.length === 0 || urls.some((url) => !url)) throw new ProviderFailure("model_request_failed", "vendor reported SUCCESS without every track's audioUrl", false);
  return {
    status: "done",
    outputs: urls.map((url) => ({ url: url as string, kind: "audio" as const, format: "mp3" })),
    data: { title: tracks[0]?.title ?? null, lyrics: tracks[0]?.lyrics ?? null },
  };
}
