import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { dominantColours, type DominantColour } from "./named-colours.js";

// How the emulated video-understanding model reads a video: frames sampled at 1 fps, at 0.5 fps from 120 s and
// at 0.2 fps from 240 s (SPEC.md), each reduced to the named colours covering most of it. Everything it says
// about a video comes from these decoded frames.


export interface SampledFrame {
  timeSeconds: number;
  colours: DominantColour[];
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
    frames.push({ timeSeconds: frames.length * interval, colours: dominantColours(raw.subarray(at, at + frameBytes)).slice(0, coloursPerFrame) });
  }
  return { ...facts, fps, frames };
}
