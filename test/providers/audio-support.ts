import { expect } from "vitest";
import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { probeMedia, type MediaProbe } from "../../core/media/probe.js";
import { fundamentalHz, loudnessDb, tempoBpm } from "../../emulator/media/audio-analysis.js";
import type { Harness } from "../support/harness.js";
import { download, TERMINAL } from "./video-support.js";

// Helpers shared by the music and voice-clone tests: making input recordings with ffmpeg, and hearing what the
// service produced (decoded from the downloaded bytes, never from what the task says about them).

const ANALYSIS_RATE = 16_000;

// A recording made by ffmpeg from an `aevalsrc` expression of `t`, in the given container.
export function recording(expression: string, seconds: number, format: "wav" | "mp3" | "flac" | "ogg", sampleRate = 16000): Promise<Buffer> {
  const codec = { wav: ["-c:a", "pcm_s16le"], mp3: ["-c:a", "libmp3lame", "-b:a", "32k"], flac: ["-c:a", "flac"], ogg: ["-c:a", "libopus"] }[format];
  return runFfmpeg(["-f", "lavfi", "-i", `aevalsrc=${expression}:s=${sampleRate}:d=${seconds}`, ...codec, "-f", format, "pipe:1"]);
}

// A click track: a short 440 Hz blip on every beat, scaled by `gain`.
export function clickTrack(bpm: number, seconds: number, gain: number, format: "wav" | "mp3" | "flac" | "ogg" = "wav"): Promise<Buffer> {
  return recording(`${gain}*sin(2*PI*440*t)*exp(-30*mod(t\\,${60 / bpm}))`, seconds, format);
}

// A voice-like sound: a fundamental and two harmonics, its level swelling three times a second like syllables.
export function voiceLike(fundamental: number, seconds: number, format: "wav" | "mp3" | "flac" = "mp3"): Promise<Buffer> {
  const f = fundamental;
  return recording(`(0.5*sin(2*PI*${f}*t)+0.3*sin(4*PI*${f}*t)+0.2*sin(6*PI*${f}*t))*(0.6+0.4*sin(6*PI*t))`, seconds, format);
}

// Follows a task to its end, keeping the progress percentages seen on the way. Songs take seconds, so a calm
// polling pace leaves the machine to the worker and the emulator that share it with the test.
export async function followTask(h: Harness, taskId: string, timeoutMs = 60_000) {
  const percents: number[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await h.request("GET", `/v1/tasks/${taskId}`);
    if (TERMINAL.includes(body.status)) return { task: body, percents };
    if (body.status === "running" && percents.at(-1) !== body.progress.percent) percents.push(body.progress.percent);
    if (Date.now() > until) throw new Error(`task ${taskId} is still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function upload(h: Harness, bytes: Buffer, filename: string): Promise<{ type: "artifact"; artifact_id: string }> {
  const response = await h.request("POST", "/v1/assets", { body: { content_base64: bytes.toString("base64"), filename } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { type: "artifact", artifact_id: response.body.artifact_id };
}

export interface HeardAudio {
  bytes: Buffer;
  probe: MediaProbe;
  loudnessDb: number;
  bpm: number | null;
  fundamentalHz: number | null;
  // The level above the backing tracks' band (1.5 to 4 kHz), where a voice is heard and an instrumental is silent.
  vocalBandDb: number;
  // The pitch of what sounds above 800 Hz: a singer's harmonics, without the backing track's chords and bass.
  singerHz: number | null;
}

// Downloads an artifact and listens to it: ffprobe for what it is, the decoded samples for how it sounds.
export async function hear(artifact: { url: string; format: string; sample_rate?: number }): Promise<HeardAudio> {
  const bytes = await download(artifact.url);
  const raw = artifact.format === "pcm" ? ["-f", "s16le", "-ar", String(artifact.sample_rate), "-ac", "1"] : [];
  const probe = await probeMedia(bytes, artifact.format === "pcm" ? { format: "pcm", sampleRate: artifact.sample_rate ?? 0 } : undefined);
  const decode = (filters: string[]) =>
    runFfmpeg([...raw, "-i", "pipe:0", ...filters, "-f", "s16le", "-ac", "1", "-ar", String(ANALYSIS_RATE), "pipe:1"], bytes);
  const pcm = { samples: await decode([]), sampleRate: ANALYSIS_RATE };
  const band = { samples: await decode(["-af", "highpass=f=1500,highpass=f=1500,highpass=f=1500,highpass=f=1500,lowpass=f=4000"]), sampleRate: ANALYSIS_RATE };
  const upper = { samples: await decode(["-af", "highpass=f=800,highpass=f=800,highpass=f=800,highpass=f=800"]), sampleRate: ANALYSIS_RATE };
  return {
    bytes,
    probe,
    loudnessDb: loudnessDb(pcm),
    bpm: tempoBpm(pcm),
    fundamentalHz: fundamentalHz(pcm),
    vocalBandDb: loudnessDb(band),
    singerHz: fundamentalHz(upper),
  };
}

export function loudnessOf(bytes: Buffer): Promise<number> {
  return runFfmpeg(["-i", "pipe:0", "-f", "s16le", "-ac", "1", "-ar", String(ANALYSIS_RATE), "pipe:1"], bytes).then((samples) =>
    loudnessDb({ samples, sampleRate: ANALYSIS_RATE }),
  );
}
