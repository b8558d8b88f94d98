import { createHash } from "node:crypto";
import { runFfmpeg } from "../../core/media/ffmpeg.js";

// The emulator's stand-in for a video model: a real H.264 clip (yuv420p, 24 fps) of exactly the requested size
// and length. What it shows follows the request: the prompt picks the colours and the tone, the seed the motion
// of the square, a bar along the bottom fills over the clip's duration, and a watermark box sits in the top
// right corner when the model watermarks. The same request always renders the same picture.

export type VideoContainer = "mp4" | "mov";

export interface VideoRenderRequest {
  width: number;
  height: number;
  durationSeconds: number;
  container: VideoContainer;
  withAudio: boolean;
  watermark: boolean;
  prompt: string;
  seed: number | null;
}

const FPS = 24;
const AUDIO_SAMPLE_RATE = 48_000;

function even(value: number): number {
  return Math.max(2, 2 * Math.round(value / 2));
}

function hexColour(byte1: number, byte2: number, byte3: number): string {
  return `0x${[byte1, byte2, byte3].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export async function renderVideo(request: VideoRenderRequest, path: string): Promise<void> {
  const { width, height, durationSeconds: seconds } = request;
  const digest = createHash("sha256").update(request.prompt).digest();
  // Dark backgrounds and light squares keep the square visible whatever the prompt.
  const background = hexColour(digest[0]! >> 1, digest[1]! >> 1, digest[2]! >> 1);
  const square = hexColour(128 + (digest[3]! >> 1), 128 + (digest[4]! >> 1), 128 + (digest[5]! >> 1));
  const toneHz = 220 + (digest[6]! % 64) * 7;
  const seed = request.seed ?? digest.readUInt16BE(7);
  const speed = 60 + (seed % 180);
  const phase = (seed % 628) / 100;
  const side = even(Math.min(width, height) / 6);
  const bar = even(Math.max(4, height / 40));

  const inputs = [
    "-f", "lavfi", "-i", `color=c=${background}:s=${width}x${height}:r=${FPS}:d=${seconds}`,
    "-f", "lavfi", "-i", `color=c=${square}:s=${side}x${side}:r=${FPS}`,
    "-f", "lavfi", "-i", `color=c=white:s=${width}x${bar}:r=${FPS}`,
    ...(request.withAudio ? ["-f", "lavfi", "-i", `sine=frequency=${toneHz}:sample_rate=${AUDIO_SAMPLE_RATE}:duration=${seconds}`] : []),
  ];
  const watermark = request.watermark ? `,drawbox=x=iw-iw/5-8:y=8:w=iw/5:h=ih/12:color=white@0.6:t=fill` : "";
  const filter =
    `[0][1]overlay=x='mod(t*${speed},W-w)':y='(H-h)/2+sin(t*2+${phase})*(H-h)/3':shortest=1[moving];` +
    `[moving][2]overlay=x='-W+W*t/${seconds}':y='H-h':shortest=1${watermark}[picture]`;
  await runFfmpeg([
    ...inputs,
    "-filter_complex", filter,
    "-map", "[picture]",
    ...(request.withAudio ? ["-map", "3:a", "-c:a", "aac", "-b:a", "96k"] : []),
    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
    "-t", String(seconds),
    "-movflags", "+faststart",
    "-f", request.container,
    "-y", path,
  ]);
}

// The clip's final frame as a PNG: the tail of the clip is decoded and every frame overwrites the one before.
export async function renderLastFrame(videoPath: string, path: string): Promise<void> {
  await runFfmpeg(["-sseof", "-1", "-i", videoPath, "-an", "-update", "1", "-c:v", "png", "-f", "image2", "-y", path]);
}
