import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MediaToolError, runFfprobe } from "./ffmpeg.js";

export interface MediaProbe {
  container: string;
  codec: string | null;
  durationSeconds: number;
  sampleRate: number | null;
  channels: number | null;
  width: number | null;
  height: number | null;
  // Frames per second of the picture stream; null for audio and still images.
  frameRate: number | null;
  hasAudio: boolean;
  hasVideo: boolean;
}

// Raw s16le PCM has no header, so its shape has to come from whoever produced it.
export interface PcmProbeHint {
  format: "pcm";
  sampleRate: number;
  channels?: number;
}

export class MediaProbeError extends Error {
  readonly detail: string;

  constructor(message: string, detail = "") {
    super(detail ? `${message}: ${detail}` : message);
    this.name = "MediaProbeError";
    this.detail = detail;
  }
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  sample_rate?: string;
  channels?: number;
  width?: number;
  height?: number;
  duration?: string;
  avg_frame_rate?: string;
  disposition?: { attached_pic?: number };
}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string };
  streams?: FfprobeStream[];
}

const PCM_BYTES_PER_SAMPLE = 2;

export async function probeMedia(bytes: Buffer, hint?: PcmProbeHint): Promise<MediaProbe> {
  if (hint?.format === "pcm") return probeRawPcm(bytes.length, hint);
  const output = await runFfprobeOnBytes(bytes);
  return describeFfprobeOutput(output);
}

// The same, for media already in a file (a download spooled to disk): nothing is read into memory.
export async function probeMediaFile(path: string, size: number, hint?: PcmProbeHint): Promise<MediaProbe> {
  if (hint?.format === "pcm") return probeRawPcm(size, hint);
  return describeFfprobeOutput(await runFfprobeOnFile(path));
}

function probeRawPcm(byteLength: number, hint: PcmProbeHint): MediaProbe {
  const channels = hint.channels ?? 1;
  if (!Number.isInteger(hint.sampleRate) || hint.sampleRate <= 0 || !Number.isInteger(channels) || channels <= 0) {
    throw new MediaProbeError("invalid pcm hint", `sampleRate ${hint.sampleRate}, channels ${channels}`);
  }
  const frameBytes = PCM_BYTES_PER_SAMPLE * channels;
  if (byteLength === 0 || byteLength % frameBytes !== 0) {
    throw new MediaProbeError("not s16le pcm", `${byteLength} bytes is not a whole number of ${frameBytes}-byte frames`);
  }
  return {
    container: "pcm",
    codec: "pcm_s16le",
    durationSeconds: byteLength / frameBytes / hint.sampleRate,
    sampleRate: hint.sampleRate,
    channels,
    width: null,
    height: null,
    frameRate: null,
    hasAudio: true,
    hasVideo: false,
  };
}

// ffprobe reads from a file rather than stdin: from a pipe it reports no duration for mp3, wav or ogg (it cannot
// seek to the end), and mp4 with its index at the end cannot be read at all.
async function runFfprobeOnBytes(bytes: Buffer): Promise<FfprobeOutput> {
  const directory = await mkdtemp(join(tmpdir(), "probe-"));
  try {
    const path = join(directory, "media");
    await writeFile(path, bytes);
    return await runFfprobeOnFile(path);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

async function runFfprobeOnFile(path: string): Promise<FfprobeOutput> {
  const stdout = await runFfprobe([
    "-v", "error", "-print_format", "json", "-show_format", "-show_streams", path,
  ]).catch((error: unknown) => {
    if (error instanceof MediaToolError) {
      throw new MediaProbeError("ffprobe cannot decode the media", error.stderr.replaceAll(`${path}: `, "").trim());
    }
    throw error;
  });
  return JSON.parse(stdout.toString("utf8")) as FfprobeOutput;
}

function describeFfprobeOutput(output: FfprobeOutput): MediaProbe {
  const streams = output.streams ?? [];
  const audio = streams.find((stream) => stream.codec_type === "audio");
  // Cover art inside an audio file is a video stream to ffprobe, but nobody would call the file a video.
  const video = streams.find((stream) => stream.codec_type === "video" && stream.disposition?.attached_pic !== 1);
  const primary = video ?? audio;
  if (!output.format?.format_name || primary === undefined) {
    throw new MediaProbeError("ffprobe found no audio or video stream");
  }
  return {
    container: output.format.format_name,
    codec: primary.codec_name ?? null,
    durationSeconds: durationOf(output, streams),
    sampleRate: audio?.sample_rate ? Number(audio.sample_rate) : null,
    channels: audio?.channels ?? null,
    width: video?.width ?? null,
    height: video?.height ?? null,
    frameRate: frameRateOf(video, output),
    hasAudio: audio !== undefined,
    hasVideo: video !== undefined,
  };
}

// Still images have no duration at all; they count as zero seconds long.
function durationOf(output: FfprobeOutput, streams: FfprobeStream[]): number {
  const candidates = [output.format?.duration, ...streams.map((stream) => stream.duration)]
    .map((value) => (value === undefined ? Number.NaN : Number(value)))
    .filter((value) => Number.isFinite(value) && value > 0);
  return candidates.length > 0 ? Math.max(...candidates) : 0;
}

// "24/1", "30000/1001"; "0/0" for a still image, whose stream ffprobe still lists as video.
function frameRateOf(video: FfprobeStream | undefined, output: FfprobeOutput): number | null {
  const [num, den] = (video?.avg_frame_rate ?? "").split("/").map(Number);
  if (!num || !den || durationOf(output, output.streams ?? []) === 0) return null;
  return num / den;
}
