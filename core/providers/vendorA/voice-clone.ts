import { VOICE_CLONE_MODELS } from "../../catalog/audio-models.js";
import type { ProviderEndpoint } from "../../config.js";
import { primarySubtag } from "../../contracts/text.js";
import { clonedVoiceIdOf } from "../../voices/clone-lifecycle.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../types.js";
import type { ResolvedMediaInput } from "../video-job.js";
import { callVendorA } from "./call.js";

// vendorA voice clone (docs/providers/vendorA.md, "Voice clone"): synchronous. We name the voice (the id the
// service shows, derived from the task's), the vendor downloads the sample from our signed URL, registers the
// voice and activates it by speaking a short text with it. The activation's audio becomes the task's preview.

const CLONE_TIMEOUT_MS = 120_000;
const FINISHED = 2;
const ACTIVATION_TEXT = "Hello! This is my new voice, ready to read whatever you write.";

interface VoiceCloneTaskInput {
  sample: ResolvedMediaInput;
  language?: string;
  model_options?: Record<string, Record<string, unknown>>;
}

interface CloneAnswer {
  base_resp?: { status_code?: number; status_msg?: string };
  data?: { voice_id?: string; demo_audio_url?: string; status?: number };
  extra_info?: { demo_audio_format?: string };
}

export async function cloneVendorAVoice(endpoint: ProviderEndpoint, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const model = VOICE_CLONE_MODELS.find((m) => m.id === request.model);
  if (!model) throw new ProviderFailure("model_unavailable", `${request.model} cannot clone voices`, false);
  const input = request.input as unknown as VoiceCloneTaskInput;
  const voiceId = clonedVoiceIdOf(request.taskId);
  const body = {
    // Opaque per-family options go first, so they cannot rename the voice or swap its sample.
    ...input.model_options?.vendorA,
    model: model.id,
    voice_id: voiceId,
    audio_url: input.sample.url,
    preview_model: model.constraints.voice_models[0],
    text: ACTIVATION_TEXT,
    language_boost: input.language ? primarySubtag(input.language) : null,
  };
  const answer = await callVendorA<CloneAnswer>(endpoint, "/v1/voice_clone", signal, { body, timeoutMs: CLONE_TIMEOUT_MS });
  const preview = answer.data?.demo_audio_url;
  if (answer.data?.status !== FINISHED || !preview) {
    throw new ProviderFailure("model_request_failed", `vendor reported the clone done without activating it (status ${String(answer.data?.status)})`, false);
  }
  if (answer.data.voice_id !== voiceId) {
    throw new ProviderFailure("model_request_failed", `vendor registered voice ${String(answer.data.voice_id)}, not the requested ${voiceId}`, false);
  }
  return {
    status: "done",
    outputs: [{ url: preview, kind: "audio", format: answer.extra_info?.demo_audio_format ?? "mp3", role: "preview" }],
    data: { voice_id: voiceId },
  };
}
