import type { ProviderEndpoint } from "../../config.js";
import { vendorModelId } from "../../catalog/vendor-ids.js";
import { musicJob, type MusicCapability, type MusicJob } from "../music-job.js";
import { pollDelayMs } from "../poll-delay.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../types.js";
import { callVendorG } from "./call.js";

// vendorG music as its reference publishes it (docs/providers/vendorG.md): submit a generation task
// (upload-cover for reference audio), then read record-info until SUCCESS; every task makes two tracks. In custom
// mode, which lyrics or `custom_mode: true` turn on (SPEC.md: the prompt then maps to the style field), `style`
// carries our prompt, `prompt` the lyrics and `title` is required.

const SUBMIT_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 10_000;
// The reference bounds titles at 80 characters for some models and 100 for others; ours are at most 80.
const MAX_TITLE_CHARACTERS = 80;

// The vendor's task vocabulary. Stages a task goes through, with the progress each one shows (none while
// PENDING: the task keeps the service's own figure); and failures, with the public code each one means.
const STAGES: Record<string, { percent: number; message: string } | null> = {
  PENDING: null,
  TEXT_SUCCESS: { percent: 40, message: "lyrics written at vendorG" },
  FIRST_SUCCESS: { percent: 70, message: "first track ready at vendorG" },
};
const FAILED = new Set(["CREATE_TASK_FAILED", "GENERATE_AUDIO_FAILED"]);

interface Track {
  id?: string;
  audioUrl?: string;
  prompt?: string;
  title?: string;
}

interface RecordInfo {
  taskId?: string;
  status?: string;
  response?: { sunoData?: Track[] | null } | null;
  errorCode?: number | null;
  errorMessage?: string | null;
}

// The reference takes weights with at most two decimals.
const twoDecimals = (value: number) => Math.round(value * 100) / 100;

// Custom mode requires a title; without one of the caller's, the song is named by its first line.
function titleOf(job: MusicJob): string {
  const firstLine = (job.lyrics ?? job.prompt).split("\n").find((line) => line.trim() !== "") ?? job.prompt;
  return [...firstLine.trim()].slice(0, MAX_TITLE_CHARACTERS).join("");
}

function submissionOf(endpoint: ProviderEndpoint, job: MusicJob) {
  const options = job.model_options?.vendorG ?? {};
  const custom = options.custom_mode ?? (job.lyrics !== undefined);
  return {
    model: vendorModelId(endpoint.ids, job.model.id),
    customMode: custom,
    instrumental: job.instrumental,
    // Required by the reference. We follow the task by reading record-info and run no receiver, so the
    // notification goes to the vendor's own address: the task's results are posted to no one else.
    callBackUrl: endpoint.baseUrl,
    // Non-custom mode takes the prompt alone: the vendor writes lyrics and title, and style and title stay empty.
    ...(custom
      ? { style: job.prompt, title: job.title ?? titleOf(job), ...(job.lyrics !== undefined ? { prompt: job.lyrics } : {}) }
      : { prompt: job.prompt }),
    ...(options.negative_tags !== undefined ? { negativeTags: options.negative_tags } : {}),
    ...(options.vocal_gender !== undefined ? { vocalGender: options.vocal_gender } : {}),
    ...(options.style_weight !== undefined ? { styleWeight: twoDecimals(options.style_weight) } : {}),
    ...(options.weirdness_constraint !== undefined ? { weirdnessConstraint: twoDecimals(options.weirdness_constraint) } : {}),
    ...(options.audio_weight !== undefined ? { audioWeight: twoDecimals(options.audio_weight) } : {}),
    ...(job.reference ? { uploadUrl: job.reference.url } : {}),
  };
}

// record-info does not say when a task was submitted, so our reference to it carries that time: polls then
// follow the task's age (core/providers/poll-delay.ts) instead of reading every second for minutes.
function refOf(taskId: string, submittedAt: Date): string {
  return `${taskId}@${submittedAt.getTime()}`;
}

function parseRef(ref: string): { taskId: string; submittedAt: Date | undefined } {
  const at = ref.lastIndexOf("@");
  if (at < 0) return { taskId: ref, submittedAt: undefined };
  return { taskId: ref.slice(0, at), submittedAt: new Date(Number(ref.slice(at + 1))) };
}

export async function submitVendorGMusic(endpoint: ProviderEndpoint, request: ProviderRequestOf<MusicCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const job = musicJob(request);
  const path = job.reference ? "/api/v1/generate/upload-cover" : "/api/v1/generate";
  const submittedAt = new Date();
  const data = await callVendorG<{ taskId?: string }>(endpoint, path, signal, { body: submissionOf(endpoint, job), timeoutMs: SUBMIT_TIMEOUT_MS });
  if (!data.taskId) throw new ProviderFailure("model_request_failed", "vendor accepted the task without a taskId", false);
  return { status: "pending", ref: refOf(data.taskId, submittedAt), pollAfterMs: pollDelayMs(submittedAt) };
}

function finished(tracks: Track[], instrumental: boolean): ProviderOutcome {
  const urls = tracks.map((track) => track.audioUrl);
  if (urls.length === 0 || urls.some((url) => !url)) throw new ProviderFailure("model_request_failed", "vendor finished the task without every track's audioUrl", false);
  const lyrics = instrumental ? null : tracks[0]?.prompt?.trim() ? (tracks[0].prompt ?? null) : null;
  return {
    status: "done",
    outputs: urls.map((url) => ({ url: url as string, kind: "audio" as const, format: "mp3" })),
    data: { title: tracks[0]?.title ?? null, lyrics },
  };
}

export async function pollVendorGMusic(endpoint: ProviderEndpoint, ref: string, request: ProviderRequestOf<MusicCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const { taskId, submittedAt } = parseRef(ref);
  const task = await callVendorG<RecordInfo>(endpoint, `/api/v1/generate/record-info?taskId=${encodeURIComponent(taskId)}`, signal, {
    timeoutMs: READ_TIMEOUT_MS,
  });
  const status = task.status ?? "";
  const tracks = task.response?.sunoData ?? [];
  const reason = `${task.errorMessage ?? "no reason given"} (${String(task.errorCode)})`;
  if (Object.hasOwn(STAGES, status)) {
    const stage = STAGES[status];
    return { status: "pending", ref, pollAfterMs: pollDelayMs(submittedAt), ...(stage ? { progress: stage } : {}) };
  }
  // Refused before anything was written: the request's words; after: what the vendor generated.
  if (status === "SENSITIVE_WORD_ERROR") {
    throw new ProviderFailure(tracks.length === 0 ? "safety_rejected" : "content_filtered", `vendor reported ${status}: ${reason}`, false);
  }
  if (FAILED.has(status)) throw new ProviderFailure("model_request_failed", `vendor reported ${status}: ${reason}`, false);
  const instrumental = musicJob(request).instrumental;
  if (status === "SUCCESS") return finished(tracks, instrumental);
  // The notification to callBackUrl failed; the tracks may still all be there.
  if (status === "CALLBACK_EXCEPTION") return finished(tracks, instrumental);
  throw new ProviderFailure("model_request_failed", `vendor reported an undocumented task status ${JSON.stringify(status)}`, false);
}
