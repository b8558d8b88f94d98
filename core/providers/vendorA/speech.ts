import { primarySubtag } from "../../contracts/text.js";
import { SPEECH_MODELS } from "../../catalog/speech-models.js";
import { DEFAULT_VENDOR_IDS, vendorModelId, vendorVoiceId } from "../../catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../config.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../types.js";
import { callVendorA } from "./call.js";
import { languageBoostOf } from "./language-boost.js";
import { assembleSpeech, speechParts, vendorRateFor, vendorSpeaksDirectly } from "./speech-assembly.js";

const SYNTHESIS_TIMEOUT_MS = 120_000;
// The vendor's pitch is whole semitones from -12 to 12; ours is -1 to 1 of the range the model supports.
const VENDOR_PITCH_RANGE = 12;

interface T2aAnswer {
  base_resp?: { status_code?: number; status_msg?: string };
  data?: { audio?: string; status?: number };
  extra_info?: { audio_sample_rate?: number; audio_format?: string };
}

// vendorA's synchronous text-to-audio call, T2A v2 (docs/providers/vendorA.md). The audio comes back as a URL
// (`output_format: "url"`) rather than the default hex: the service then downloads it like every other output,
// with its size cap and retries, instead of holding twice the audio's size of JSON in memory. What the vendor does
// not make in one call (opus, or a longer text) is spoken in WAV parts and finished here (speech-assembly.ts).
export async function synthesizeSpeech(
  endpoint: ProviderEndpoint,
  request: ProviderRequestOf<"text_to_speech">,
  signal: AbortSignal,
): Promise<ProviderOutcome> {
  const input = request.input;
  const model = SPEECH_MODELS.find((m) => m.id === request.model);
  const sampleRate = input.sample_rate ?? model?.constraints.sample_rates[input.format]?.[0] ?? 32000;
  if (vendorSpeaksDirectly(input.input, input.format, sampleRate)) {
    const spoken = await speakPart(endpoint, request, input.input, { format: input.format, sampleRate }, signal);
    return {
      status: "done",
      outputs: [{ url: spoken.url, kind: "audio", format: spoken.format ?? input.format, sampleRate: spoken.sampleRate ?? sampleRate }],
    };
  }
  const partSetting = { format: "wav", sampleRate: vendorRateFor(sampleRate) };
  const urls: string[] = [];
  for (const part of speechParts(input.input)) urls.push((await speakPart(endpoint, request, part, partSetting, signal)).url);
  const file = await assembleSpeech(endpoint, urls, { format: input.format, sampleRate }, signal);
  return { status: "done", outputs: [{ file, kind: "audio", format: input.format, sampleRate }] };
}

interface SpokenPart {
  url: string;
  format?: string;
  sampleRate?: number;
}

// One T2A v2 call: `text` spoken with the request's voice and settings, as `setting` asks.
async function speakPart(
  endpoint: ProviderEndpoint,
  request: ProviderRequestOf<"text_to_speech">,
  text: string,
  setting: { format: string; sampleRate: number },
  signal: AbortSignal,
): Promise<SpokenPart> {
  const input = request.input;
  // An endpoint built without loadConfig (a test's own) carries no ids: the shipped defaults apply.
  const ids = endpoint.ids ?? DEFAULT_VENDOR_IDS.vendorA;
  const body = {
    model: vendorModelId(ids, request.model),
    text,
    stream: false,
    voice_setting: {
      voice_id: vendorVoiceId(ids, input.voice),
      speed: input.speed,
      vol: input.volume,
      pitch: Math.round(input.pitch * VENDOR_PITCH_RANGE),
      // The reference lists no `neutral`: without an emotion the model reads the text as written.
      emotion: input.emotion === "neutral" ? undefined : input.emotion,
    },
    audio_setting: { format: setting.format, sample_rate: setting.sampleRate, channel: 1 },
    language_boost: languageBoostOf(input.language ? primarySubtag(input.language) : null),
    pronunciation_dict: input.model_options?.vendorA?.pronunciation_dict,
    output_format: "url",
  };
  const answer = await callVendorA<T2aAnswer>(endpoint, "/v1/t2a_v2", signal, { body, timeoutMs: SYNTHESIS_TIMEOUT_MS });
  const url = answer.data?.audio;
  if (answer.data?.status !== 2 || !url || !/^https?:\/\//.test(url)) {
    throw new ProviderFailure(
      "model_request_failed",
      `vendor reported success without audio (status ${String(answer.data?.status)})`,
      false,
    );
  }
  return {
    url,
    ...(answer.extra_info?.audio_format ? { format: answer.extra_info.audio_format } : {}),
    ...(answer.extra_info?.audio_sample_rate ? { sampleRate: answer.extra_info.audio_sample_rate } : {}),
  };
}
