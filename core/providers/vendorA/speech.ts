import { primarySubtag } from "../../contracts/text.js";
import { SPEECH_MODELS } from "../../catalog/speech-models.js";
import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../types.js";
import { callVendorA } from "./call.js";

const SYNTHESIS_TIMEOUT_MS = 120_000;

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
  const answer = await callVendorA<T2aAnswer>(endpoint, "/v1/t2a_v2", signal, { body, timeoutMs: SYNTHESIS_TIMEOUT_MS });
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
