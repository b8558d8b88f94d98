import type { ProviderEndpoint } from "../../config.js";
import { musicJob, type MusicCapability } from "../music-job.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../types.js";
import { callVendorA, vendorAModelId } from "./call.js";

// vendorA music (docs/providers/vendorA.md, "Music"): synchronous like vendorA speech. One POST makes one song
// and answers with its audio in `data.audio`, a download URL since we ask for `output_format: "url"` (hex is the
// vendor's default; a URL is downloaded like every other output); reference audio goes along as `refer_audio_url`. The model always sings:
// without lyrics it writes its own, which needs `lyrics_optimizer` (on unless the request turns it off, which
// admission refuses without lyrics).

const GENERATION_TIMEOUT_MS = 300_000;
const FINISHED = 2;

interface MusicAnswer {
  base_resp?: { status_code?: number; status_msg?: string };
  data?: { audio?: string; status?: number; title?: string; lyrics?: string };
  extra_info?: { music_sample_rate?: number };
}

export async function generateVendorAMusic(endpoint: ProviderEndpoint, request: ProviderRequestOf<MusicCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const job = musicJob(request);
  const options = job.model_options?.vendorA ?? {};
  const offered = job.model.constraints.model_options.vendorA?.audio_setting;
  // The first value the catalog lists is the vendor's default.
  const setting = {
    sample_rate: options.audio_setting?.sample_rate ?? offered?.sample_rates[0] ?? 44100,
    bitrate: options.audio_setting?.bitrate ?? offered?.bitrates[0] ?? 256000,
    format: options.audio_setting?.format ?? offered?.formats[0] ?? "mp3",
  };
  const body = {
    model: vendorAModelId(endpoint, job.model.id),
    prompt: job.prompt,
    ...(job.lyrics !== undefined ? { lyrics: job.lyrics } : {}),
    lyrics_optimizer: options.lyrics_optimizer ?? (job.lyrics === undefined),
    ...(job.reference ? { refer_audio_url: job.reference.url } : {}),
    audio_setting: setting,
    aigc_watermark: options.aigc_watermark ?? false,
    output_format: "url",
  };
  const answer = await callVendorA<MusicAnswer>(endpoint, "/v1/music_generation", signal, { body, timeoutMs: GENERATION_TIMEOUT_MS });
  const url = answer.data?.audio;
  if (answer.data?.status !== FINISHED || !url || !/^https?:\/\//.test(url)) {
    throw new ProviderFailure("model_request_failed", `vendor reported success without music (status ${String(answer.data?.status)})`, false);
  }
  return {
    status: "done",
    outputs: [{ url, kind: "audio", format: setting.format, sampleRate: answer.extra_info?.music_sample_rate ?? setting.sample_rate }],
    // The vendor takes no title: the request's stands, else whatever the answer names.
    data: { title: job.title ?? answer.data.title ?? null, lyrics: answer.data.lyrics ?? job.lyrics ?? null },
  };
}
