import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { runFfmpeg } from "../../core/media/ffmpeg.js";
import type { Harness } from "../support/harness.js";

// Real input media for the video tests (small and short), and the readings a test takes of an output: the
// colours of chosen frames and how loud a tone of a given pitch is in the soundtrack.

export type Rgb = readonly [number, number, number];

export const COLOURS: Readonly<Record<string, Rgb>> = {
  red: [255, 0, 0],
  yellow: [255, 255, 0],
  blue: [0, 0, 255],
  green: [0, 255, 0],
  magenta: [255, 0, 255],
  cyan: [0, 255, 255],
};

const hex = ([r, g, b]: Rgb) => `0x${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;

// A PNG whose left half is one colour and right half another: a picture a test can recognise in an output frame.
export function halvesPng(width: number, height: number, left: Rgb, right: Rgb): Promise<Buffer> {
  const half = `s=${width / 2}x${height}`;
  return runFfmpeg([
    "-f", "lavfi", "-i", `color=c=${hex(left)}:${half}`,
    "-f", "lavfi", "-i", `color=c=${hex(right)}:${half}`,
    "-filter_complex", "[0][1]hstack", "-frames:v", "1", "-f", "image2", "-c:v", "png", "pipe:1",
  ]);
}

// An MP4 showing each colour for one second in turn (cut at `seconds` when given), with a tone of `toneHz`
// throughout (none when null).
export async function colourSequenceMp4(
  colours: readonly Rgb[],
  size: { width: number; height: number },
  toneHz: number | null,
  seconds = colours.length,
): Promise<Buffer> {
  const parts = colours.flatMap((c) => ["-f", "lavfi", "-i", `color=c=${hex(c)}:s=${size.width}x${size.height}:r=24:d=1`]);
  const tone = toneHz === null ? [] : ["-f", "lavfi", "-i", `sine=frequency=${toneHz}:sample_rate=48000:duration=${seconds}`];
  const joined = `${colours.map((_, i) => `[${i}]`).join("")}concat=n=${colours.length}:v=1:a=0[v]`;
  return inTempFile((path) =>
    runFfmpeg([
      ...parts, ...tone,
      "-filter_complex", joined, "-map", "[v]",
      ...(toneHz === null ? [] : ["-map", `${colours.length}:a`, "-c:a", "aac"]),
      "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-t", String(seconds), "-movflags", "+faststart", "-f", "mp4", "-y", path,
    ]),
  );
}

// A long, tiny, one-frame-a-second MP4 of one colour: cheap to make at the lengths that change the sampling rate.
export function longStillMp4(colour: Rgb, seconds: number): Promise<Buffer> {
  return inTempFile((path) =>
    runFfmpeg([
      "-f", "lavfi", "-i", `color=c=${hex(colour)}:s=64x36:r=1:d=${seconds}`,
      "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4", "-y", path,
    ]),
  );
}

export function toneWav(frequency: number, seconds: number): Promise<Buffer> {
  return runFfmpeg(["-f", "lavfi", "-i", `sine=frequency=${frequency}:sample_rate=16000:duration=${seconds}`, "-f", "wav", "pipe:1"]);
}

export function dataUri(bytes: Buffer, type: string): string {
  return `data:${type};base64,${bytes.toString("base64")}`;
}

// Uploads bytes as the tenant's asset and answers the media input that names it.
export async function uploaded(h: Harness, bytes: Buffer, filename: string) {
  const response = await h.request("POST", "/v1/assets", { body: { content_base64: bytes.toString("base64"), filename } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { type: "artifact", artifact_id: response.body.artifact_id as string };
}

// Runs `work` on a temporary file: holding `bytes` when given, else written by `work` and read back.
async function inTempFile(work: (path: string) => Promise<unknown>, bytes?: Buffer): Promise<Buffer> {
  const directory = await mkdtemp(join(tmpdir(), "video-test-"));
  try {
    const path = join(directory, "media");
    if (bytes) await writeFile(path, bytes);
    await work(path);
    return bytes ?? (await readFile(path));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export interface Frame {
  rgb: Buffer;
  width: number;
  height: number;
}

// Frames of a video (by index, at 24 fps) shrunk to `width` × `height` without blending neighbouring pixels.
export async function framesOf(video: Buffer, indices: readonly number[], width = 64, height = 36): Promise<Frame[]> {
  let raw: Buffer = Buffer.alloc(0);
  const select = indices.map((n) => `eq(n,${n})`).join("+");
  await inTempFile(async (path) => {
    raw = await runFfmpeg([
      "-i", path, "-an",
      "-vf", `select='${select}',scale=${width}:${height}:flags=neighbor`, "-vsync", "0",
      "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1",
    ]);
  }, video);
  const size = width * height * 3;
  expect(raw.length).toBe(size * indices.length);
  return indices.map((_, i) => ({ rgb: raw.subarray(i * size, (i + 1) * size), width, height }));
}

// The mean colour of a region given in fractions of the frame (x0, y0, x1, y1).
export function regionColour(frame: Frame, [x0, y0, x1, y1]: readonly [number, number, number, number]): Rgb {
  const sums = [0, 0, 0];
  let count = 0;
  for (let y = Math.floor(y0 * frame.height); y < Math.ceil(y1 * frame.height); y++) {
    for (let x = Math.floor(x0 * frame.width); x < Math.ceil(x1 * frame.width); x++) {
      const at = (y * frame.width + x) * 3;
      for (let c = 0; c < 3; c++) sums[c]! += frame.rgb[at + c]!;
      count++;
    }
  }
  return sums.map((sum) => Math.round(sum / count)) as unknown as Rgb;
}

export function distance(a: Rgb, b: Rgb): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

// The share of a frame's pixels within `tolerance` of a colour.
export function shareNear(frame: Frame, colour: Rgb, tolerance = 60): number {
  let near = 0;
  for (let at = 0; at < frame.rgb.length; at += 3) {
    if (distance([frame.rgb[at]!, frame.rgb[at + 1]!, frame.rgb[at + 2]!], colour) <= tolerance) near++;
  }
  return near / (frame.rgb.length / 3);
}

const ANALYSIS_RATE = 8000;

// The soundtrack as mono samples at 8 kHz, from `fromSeconds` for `seconds`.
export async function soundtrack(video: Buffer, fromSeconds: number, seconds: number): Promise<Float64Array> {
  let raw: Buffer = Buffer.alloc(0);
  await inTempFile(async (path) => {
    raw = await runFfmpeg(["-ss", String(fromSeconds), "-t", String(seconds), "-i", path, "-vn", "-ac", "1", "-ar", String(ANALYSIS_RATE), "-f", "s16le", "pipe:1"]);
  }, video);
  const samples = new Float64Array(raw.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = raw.readInt16LE(i * 2) / 32768;
  return samples;
}

// The share of the signal's energy at one frequency (Goertzel), 0 to about 1: a pure tone scores near 1 at its
// own pitch and near 0 elsewhere.
export function toneShare(samples: Float64Array, frequency: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / ANALYSIS_RATE);
  let [previous, beforePrevious, energy] = [0, 0, 0];
  for (const sample of samples) {
    const current = sample + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
    energy += sample * sample;
  }
  const power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
  return energy === 0 ? 0 : (2 * power) / (samples.length * energy);
}
