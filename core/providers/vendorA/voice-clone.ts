import { clonedVoiceIdOf } from "../../capabilities/audio/voice-clone-lifecycle.js";
import { VOICE_CLONE_MODELS } from "../../catalog/audio-models.js";
import { DEFAULT_VENDOR_IDS, vendorModelId } from "../../catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../config.js";
import { primarySubtag } from "../../contracts/text.js";
import { vendorFetch } from "../http.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../types.js";
import type { ResolvedMediaInput } from "../vendor-input.js";
import { callVendorA, vendorAAnswer } from "./call.js";
import { languageBoostOf } from "./language-boost.js";

// vendorA voice clone (docs/providers/vendorA.md, "Voice clone"), as the vendor publishes it: the sample is
// uploaded (`POST /v1/files/upload`, multipart, purpose `voice_clone`) for a `file_id`, then `POST
// /v1/voice_clone` registers it under the voice id we chose (derived from the task's, the id the service shows)
// and speaks a short demonstration with the speech model we name. The demonstration becomes the task's preview.

const UPLOAD_TIMEOUT_MS = 60_000;
const CLONE_TIMEOUT_MS = 120_000;
const ACTIVATION_TEXT = "Hello! This is my new voice, ready to read whatever you write.";

interface UploadAnswer {
  base_resp?: { status_code?: number; status_msg?: string };
  file?: { file_id?: number };
}

interface CloneAnswer {
  base_resp?: { status_code?: number; status_msg?: string };
  input_sensitive?: boolean;
  demo_audio?: string;
}

// The sample's bytes, read from the service's own signed URL, sent to the vendor as a file.
async function uploadSample(endpoint: ProviderEndpoint, sample: ResolvedMediaInput, signal: AbortSignal): Promise<number> {
  let bytes: ArrayBuffer;
  try {
    const response = await fetch(sample.url, { signal: AbortSignal.any([signal, AbortSignal.timeout(UPLOAD_TIMEOUT_MS)]) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    bytes = await response.arrayBuffer();
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ProviderFailure("model_request_failed", `the stored voice sample could not be read: ${(error as Error).message}`, true);
  }
  const form = new FormData();
  form.append("purpose", "voice_clone");
  form.append("file", new Blob([bytes]), `sample.${sample.format}`);
  const response = await vendorFetch(
    `${endpoint.baseUrl}/v1/files/upload`,
    { method: "POST", headers: { authorization: `Bearer ${endpoint.apiKey}` }, body: form, timeoutMs: UPLOAD_TIMEOUT_MS },
    signal,
  );
  const fileId = vendorAAnswer<UploadAnswer>(response).file?.file_id;
  if (typeof fileId !== "number") throw new ProviderFailure("model_request_failed", "vendor accepted the sample without a file_id", false);
  return fileId;
}

export async function cloneVendorAVoice(endpoint: ProviderEndpoint, request: ProviderRequestOf<"voice_clone">, signal: AbortSignal): Promise<ProviderOutcome> {
  const model = VOICE_CLONE_MODELS.find((m) => m.id === request.model);
  if (!model) throw new ProviderFailure("model_unavailable", `${request.model} cannot clone voices`, false);
  const input = request.input;
  const voiceId = clonedVoiceIdOf(request.taskId);
  const ids = endpoint.ids ?? DEFAULT_VENDOR_IDS.vendorA;
  const fileId = await uploadSample(endpoint, input.sample, signal);
  const body = {
    // Opaque per-family options go first, so they cannot rename the voice or swap its sample.
    ...input.model_options?.vendorA,
    file_id: fileId,
    voice_id: voiceId,
    text: ACTIVATION_TEXT,
    model: vendorModelId(ids, model.constraints.voice_models[0] ?? ""),
    language_boost: languageBoostOf(input.language ? primarySubtag(input.language) : null),
  };
  const answer = await callVendorA<CloneAnswer>(endpoint, "/v1/voice_clone", signal, { body, timeoutMs: CLONE_TIMEOUT_MS });
  if (answer.input_sensitive === true) throw new ProviderFailure("safety_rejected", "vendor safety review flagged the voice sample", false);
  const preview = answer.demo_audio;
  if (!preview || !/^https?:\/\//.test(preview)) {
    throw new ProviderFailure("model_request_failed", "vendor reported the clone done without activating it (no demo_audio URL)", false);
  }
  return {
    status: "done",
    outputs: [{ url: preview, kind: "audio", format: "mp3", role: "preview" }],
    data: { voice_id: voiceId },
  };
}
