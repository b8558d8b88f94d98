import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { sniffMediaType } from "../../core/media/sniff.js";
import type { PcmAudio } from "../audio-encoding.js";
import { durationSecondsOf } from "./audio-analysis.js";

// A recording a caller hands an emulated vendor by URL (a reference track, a voice sample): downloaded the way
// the real vendors do, then decoded to 16 kHz mono so that what is made from it follows what it really is.

const FETCH_TIMEOUT_MS = 30_000;
const ANALYSIS_RATE = 16_000;

export interface Recording {
  // As the service names formats: mp3, wav, flac, ogg, m4a.
  format: string;
  byteSize: number;
  pcm: PcmAudio;
}

// Why a recording could not be used, in words the vendor hands back.
export class RecordingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RecordingError";
  }
}

async function fetchRecording(url: string): Promise<Recording> {
  let bytes: Buffer;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!response.ok) throw new RecordingError(`downloading ${url} answered HTTP ${response.status}`);
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof RecordingError) throw error;
    throw new RecordingError(`could not download ${url}: ${(error as Error).message}`);
  }
  const sniffed = sniffMediaType(bytes);
  if (sniffed?.kind !== "audio") throw new RecordingError("the file is not audio");
  return { format: sniffed.format, byteSize: bytes.length, pcm: { samples: await decodeToPcm(bytes), sampleRate: ANALYSIS_RATE } };
}

export interface RecordingLimits {
  formats: readonly string[];
  minSeconds: number;
  maxSeconds: number;
  maxBytes?: number;
}

// Downloads a recording and refuses one outside a model's limits (the vendor checks them again, whatever the
// caller checked before).
export async function fetchAcceptedRecording(url: string, limits: RecordingLimits): Promise<Recording> {
  const recording = await fetchRecording(url);
  if (!limits.formats.includes(recording.format)) {
    throw new RecordingError(`${recording.format} is not accepted; use ${limits.formats.join(", ")}`);
  }
  if (limits.maxBytes !== undefined && recording.byteSize > limits.maxBytes) {
    throw new RecordingError(`the file is ${recording.byteSize} bytes; at most ${limits.maxBytes} are accepted`);
  }
  const seconds = durationSecondsOf(recording.pcm);
  if (seconds < limits.minSeconds || seconds > limits.maxSeconds) {
    throw new RecordingError(`the recording lasts ${seconds.toFixed(1)} s; ${limits.minSeconds} to ${limits.maxSeconds} s are accepted`);
  }
  return recording;
}

// From a file rather than a pipe: an M4A with its index at the end cannot be read from a pipe.
async function decodeToPcm(bytes: Buffer): Promise<Buffer> {
  const directory = await mkdtemp(join(tmpdir(), "recording-"));
  try {
    const path = join(directory, "input");
    await writeFile(path, bytes);
    return await runFfmpeg(["-i", path, "-f", "s16le", "-ac", "1", "-ar", String(ANALYSIS_RATE), "pipe:1"]);
  } catch {
    throw new RecordingError("the audio could not be decoded");
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
