import { primarySubtag } from "../../contracts/text.js";
import { SPEECH_MODELS } from "../../catalog/speech-models.js";
import type { ProviderEndpoint } from "../../config.js";
import { retryAfterMs, vendorFetch } from "../http.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../types.js";

interface SpeechTaskInput {
  voice: string;
  input: string;
  language?: string;
  format: string;
  sample_rate?: number;
  speed: number;
  volume: number;
  pitch: number;
  emotion?: string;
  model_options?: { vendorA?: { pronunciation_dict?: { tone: string[] } } };
}

interface T2aAnswer {
  base_resp?: { status_code?: number; status_msg?: string };
  data?: { audio_url?: string; status?: number };
  extra_info?: { audio_sample_rate?: number; audio_format?: string };
}

// vendorA's synchronous text-to-audio call (docs/providers/vendorA.md): one POST answers with a download URL.
export async function synthesizeSpeech(
  endpoint: ProviderEndpoint,
  request: ProviderRequest,
  signal: AbortSignal,
): Promise<ProviderOutcome> {
  const input = request.input as unknown as SpeechTaskInput;
  const model = SPEECH_MODELS.find((m) => m.id === request.model);
  const sampleRate = input.sample_rate ?? model?.constraints.sample_rates[input.format as "mp3"]?.[0] ?? 32000;
  const body = {
    model: request.model,
    text: input.input,
    voice_setting: { voice_id: input.voice, speed: input.speed, vol: input.volume, pitch: input.pitch, emotion: input.emotion },
    audio_setting: { format: input.format, sample_rate: sampleRate, channel: 1 },
    language_boost: input.language ? primarySubtag(input.language) : null,
    pronunciation_dict: input.model_options?.vendorA?.pronunciation_dict,
  };
  const response = await vendorFetch(
    `${endpoint.baseUrl}/v1/t2a_v2`,
    {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${endpoint.apiKey}` },
      body: JSON.stringify(body),
      timeoutMs: 120_000,
    },
    signal,
  );
  let answer: T2aAnswer;
  try {
    answer = JSON.parse(response.text) as T2aAnswer;
  } catch {
    // A garbled answer is treated like a 5xx: the vendor may answer properly next time.
    throw new ProviderFailure("model_request_failed", `vendor answered HTTP ${response.status} with a body that is not JSON`, true);
  }
  const vendorCode = answer.base_resp?.status_code;
  const vendorMessage = answer.base_resp?.status_msg ?? `HTTP ${response.status}`;
  if (response.status === 429 || vendorCode === 1002) {
    throw new ProviderFailure("model_rate_limited", `vendor rate limit: ${vendorMessage}`, true, retryAfterMs(response.headers));
  }
  if (response.status === 401 || response.status === 403 || vendorCode === 1004) {
    throw new ProviderFailure("model_unavailable", `vendor refused our credentials: ${vendorMessage}`, false);
  }
  if (response.status >= 500) throw new ProviderFailure("model_request_failed", `vendor error: ${vendorMessage}`, true);
  if (vendorCode === 1026) throw new ProviderFailure("safety_rejected", `vendor safety review: ${vendorMessage}`, false);
  if (vendorCode === 1027) throw new ProviderFailure("content_filtered", `vendor blocked the output: ${vendorMessage}`, false);
  if (response.status !== 200 || vendorCode !== 0) {
    throw new ProviderFailure("model_request_failed", `vendor error ${vendorCode ?? response.status}: ${vendorMessage}`, false);
  }
  const url = answer.data?.audio_url;
  if (answer.data?.status !== 2 || !url) {
    throw new ProviderFailure(
      "model_request_failed",
      `vendor reported success without audio (status ${String(answer.data?.status)})`,
      false,
    );
  }
  return {
    status: "done",
    outputs: [{ url, kind: "audio", format: answer.extra_info?.audio_format ?? input.format, sampleRate: answer.extra_info?.audio_sample_rate ?? sampleRate }],
  };
}
