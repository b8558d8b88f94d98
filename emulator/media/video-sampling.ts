import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { nearestColourName, rgbHex } from "./named-colours.js";

// How the emulated video-understanding model reads a video: frames sampled at 1 fps, at 0.5 fps from 120 s and
// at 0.2 fps from 240 s (SPEC.md), each reduced to the named colours covering most of it. Everything it says
// about a video comes from these decoded frames.

export interface FrameColour {
  name: string;
  hex: string;
  // The share of the frame, 0 to 1.
  share: number;
}

export interface SampledFrame {
  timeSeconds: number;
  colours: FrameColour[];
}

export interface VideoSample {
  durationSeconds: number;
  width: number;
  height: number;
  fps: number;
  frames: SampledFrame[];
}

// Frames are looked at this small: enough for colour shares to a few percent, cheap for ten-minute videos.
const ANALYSIS_WIDTH = 32;
const ANALYSIS_HEIGHT = 18;
// Colours covering less than this share of a frame are not worth naming.
const MIN_SHARE = 0.05;

export function samplingFps(durationSeconds: number): number {
  if (durationSeconds >= 240) return 0.2;
  if (durationSeconds >= 120) return 0.5;
  return 1;
}

export async function sampleVideo(
  path: string,
  facts: { durationSeconds: number; width: number; height: number },
  coloursPerFrame: number,
): Promise<VideoSample> {
  const fps = samplingFps(facts.durationSeconds);
  const interval = 1 / fps;
  // The first frame, then each frame at least one interval after the last one taken (a millisecond's slack
  // absorbs timestamps stored as fractions).
  const raw = await runFfmpeg([
    "-i", path,
    "-an",
    "-vf", `select='isnan(prev_selected_t)+gte(t-prev_selected_t,${interval - 0.001})',scale=${ANALYSIS_WIDTH}:${ANALYSIS_HEIGHT}:flags=neighbor`,
    "-vsync", "0",
    "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1",
  ]);
  const frameBytes = ANALYSIS_WIDTH * ANALYSIS_HEIGHT * 3;
  const frames: SampledFrame[] = [];
  for (let at = 0; at + frameBytes <= raw.length; at += frameBytes) {
    frames.push({ timeSeconds: frames.length * interval, colours: dominantColours(raw.subarray(at, at + frameBytes), coloursPerFrame) });
  }
  return { ...facts, fps, frames };
}

function dominantColours(rgb: Buffer, count: number): FrameColour[] {
  const classes = new Map<string, { pixels: number; sums: [number, number, number] }>();
  for (let at = 0; at < rgb.length; at += 3) {
    const [r, g, b] = [rgb[at]!, rgb[at + 1]!, rgb[at + 2]!];
    const name = nearestColourName(r, g, b);
    const entry = classes.get(name) ?? { pixels: 0, sums: [0, 0, 0] };
    entry.pixels += 1;
    entry.sums[0] += r;
    entry.sums[1] += g;
    entry.sums[2] += b;
    classes.set(name, entry);
  }
  const pixels = rgb.length / 3;
  return [...classes]
    .map(([name, { pixels: n, sums }]) => ({
      name,
      hex: rgbHex([Math.round(sums[0] / n), Math.round(sums[1] / n), Math.round(sums[2] / n)]),
      share: n / pixels,
    }))
    .filter((colour) => colour.share >= MIN_SHARE)
    .sort((a, b) => b.share - a.share)
    .slice(0, count);
}
