import { stat } from "node:fs/promises";
import type { ProviderEndpoint } from "../../config.js";
import { MediaToolError, runFfmpeg } from "../../media/ffmpeg.js";
import { VENDOR_OUTPUT_CAPS } from "../../media/limits.js";
import { spoolDirectory, type HandedFile } from "../../media/spool.js";
import { downloadOutput } from "../http.js";
import { ProviderFailure } from "../types.js";

// What the service does on its own side of vendorA speech (docs/providers/vendorA.md, "What the service does on
// its side"): SPEC.md promises `opus` and inputs of up to 50,000 characters; T2A v2 makes neither (mp3, pcm, flac
// or wav, under 10,000 characters a call). Such a request is spoken in parts of at most 10,000 characters, each
// as WAV, and the parts are joined and encoded into the requested format and rate here.

export const VENDOR_MAX_CALL_CHARACTERS = 10_000;
export const VENDOR_FORMATS: readonly string[] = ["mp3", "pcm", "flac", "wav"];
export const VENDOR_SAMPLE_RATES: readonly number[] = [8000, 16000, 22050, 24000, 32000, 44100];

const ENCODERS: Record<string, string[]> = {
  mp3: ["-c:a", "libmp3lame", "-b:a", "128k", "-f", "mp3"],
  wav: ["-c:a", "pcm_s16le", "-f", "wav"],
  flac: ["-c:a", "flac", "-f", "flac"],
  pcm: ["-c:a", "pcm_s16le", "-f", "s16le"],
  opus: ["-c:a", "libopus", "-b:a", "48k", "-f", "ogg"],
};
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

// Whether the vendor makes this request in one call, as asked.
export function vendorSpeaksDirectly(text: string, format: string, sampleRate: number): boolean {
  return [...text].length <= VENDOR_MAX_CALL_CHARACTERS && VENDOR_FORMATS.includes(format) && VENDOR_SAMPLE_RATES.includes(sampleRate);
}

// The rate the parts are asked for: the requested one when the vendor makes it, else its highest.
export function vendorRateFor(sampleRate: number): number {
  return VENDOR_SAMPLE_RATES.includes(sampleRate) ? sampleRate : Math.max(...VENDOR_SAMPLE_RATES);
}

// The text in parts of at most `max` characters, each ending after a sentence, else after a space, where one does
// within the part (a word is split only when it alone is longer than a part).
export function speechParts(text: string, max = VENDOR_MAX_CALL_CHARACTERS): string[] {
  const characters = [...text];
  const parts: string[] = [];
  let start = 0;
  while (characters.length - start > max) {
    const window = characters.slice(start, start + max);
    const sentence = lastIndexMatching(window, (c, next) => /[.!?。！？\n]/.test(c) && (next === undefined || /\s/.test(next)));
    const space = lastIndexMatching(window, (c) => /\s/.test(c));
    const end = sentence > 0 ? sentence + 1 : space > 0 ? space + 1 : max;
    parts.push(window.slice(0, end).join(""));
    start += end;
  }
  parts.push(characters.slice(start).join(""));
  return parts.filter((part) => part.trim().length > 0);
}

function lastIndexMatching(window: string[], test: (c: string, next: string | undefined) => boolean): number {
  for (let i = window.length - 1; i >= 0; i--) if (test(window[i]!, window[i + 1])) return i;
  return -1;
}

// Downloads the vendor's WAV parts, joins them and encodes the result into a file of the work's spool directory,
// bounded by the audio output cap. The file is handed to the worker, which stores it like any other output and
// removes it; on any failure (or abort) here the directory is removed at once.
export async function assembleSpeech(
  endpoint: ProviderEndpoint,
  partUrls: readonly string[],
  target: { format: string; sampleRate: number },
  signal: AbortSignal,
): Promise<HandedFile> {
  const directory = await spoolDirectory();
  try {
    const vendor = URL.canParse(endpoint.baseUrl) ? new URL(endpoint.baseUrl) : null;
    // A vendor configured on this machine (the emulator, in development and tests) is trusted as configuration is,
    // and so are its files on this machine; any other address is held to the outbound policy.
    const vendorIsLocal = vendor !== null && LOOPBACK_HOSTS.has(vendor.hostname);
    const files: string[] = [];
    for (const [index, url] of partUrls.entries()) {
      const file = directory.file(`part-${index}.wav`);
      const fromVendor = URL.canParse(url) && (new URL(url).origin === vendor?.origin || vendorIsLocal);
      await downloadOutput(url, signal, { file, maxBytes: VENDOR_OUTPUT_CAPS.audio, policy: { allowLoopbackHttp: fromVendor } });
      files.push(file);
    }
    const output = directory.file(`speech.${target.format}`);
    const inputs = files.flatMap((file) => ["-i", file]);
    const join = files.length > 1 ? ["-filter_complex", `${files.map((_, i) => `[${i}:a]`).join("")}concat=n=${files.length}:v=0:a=1`] : [];
    try {
      await runFfmpeg([...inputs, ...join, "-ac", "1", "-ar", String(target.sampleRate), ...ENCODERS[target.format]!, "-y", output]);
    } catch (error) {
      if (error instanceof MediaToolError) throw new ProviderFailure("model_output_invalid", `the vendor's audio could not be encoded as ${target.format}: ${error.message}`, false);
      throw error;
    }
    if ((await stat(output)).size > VENDOR_OUTPUT_CAPS.audio) {
      throw new ProviderFailure("model_output_invalid", `the joined speech is larger than ${VENDOR_OUTPUT_CAPS.audio} bytes`, false);
    }
    return { path: output, dispose: directory.dispose };
  } catch (error) {
    await directory.dispose();
    throw error;
  }
}
