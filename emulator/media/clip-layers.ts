import { createHash } from "node:crypto";
import type { LocalMedia } from "./video-materials.js";

// The pieces every emulated clip is made of, as ffmpeg filter-graph text: what a prompt looks and sounds like,
// the generated motion (a moving square and a bar filling over the clip), reference tiles, the watermark box and
// the soundtrack. The renderers put them together; the same request always renders the same picture.

export const FPS = 24;
const AUDIO_SAMPLE_RATE = 48_000;
// Every audio part is brought to one format so parts can be mixed and concatenated.
export const AUDIO_FORMAT = `aformat=sample_rates=${AUDIO_SAMPLE_RATE}:channel_layouts=stereo`;

function even(value: number): number {
  return Math.max(2, 2 * Math.round(value / 2));
}

function hexColour(byte1: number, byte2: number, byte3: number): string {
  return `0x${[byte1, byte2, byte3].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export interface PromptLook {
  background: string;
  square: string;
  toneHz: number;
  speed: number;
  phase: number;
  // An edit's hue rotation, in degrees: far enough from 0 and 360 that the change is plain to see.
  hueDegrees: number;
}

// The prompt picks the colours, the tone and the hue of an edit; the seed (or the prompt) the motion.
export function promptLook(prompt: string, seed: number | null): PromptLook {
  const digest = createHash("sha256").update(prompt).digest();
  const motionSeed = seed ?? digest.readUInt16BE(7);
  return {
    // Dark backgrounds and light squares keep the square visible whatever the prompt.
    background: hexColour(digest[0]! >> 1, digest[1]! >> 1, digest[2]! >> 1),
    square: hexColour(128 + (digest[3]! >> 1), 128 + (digest[4]! >> 1), 128 + (digest[5]! >> 1)),
    toneHz: 220 + (digest[6]! % 64) * 7,
    speed: 60 + (motionSeed % 180),
    phase: (motionSeed % 628) / 100,
    hueDegrees: 90 + (digest[9]! % 180),
  };
}

// Inputs and filters of one ffmpeg run, with input indices and stream labels handed out as they are added.
export class FilterGraph {
  readonly inputs: string[] = [];
  readonly filters: string[] = [];
  private inputCount = 0;
  private labelCount = 0;

  input(...args: string[]): number {
    this.inputs.push(...args);
    return this.inputCount++;
  }

  // Adds `[from…]filter[to]` and returns the new label.
  add(from: readonly string[], filter: string): string {
    return this.addWithOutputs(from, filter, 1)[0] as string;
  }

  // A filter with several outputs (split, concat of video and audio), one new label each.
  addWithOutputs(from: readonly string[], filter: string, count: number): string[] {
    const to = Array.from({ length: count }, () => `s${this.labelCount++}`);
    this.filters.push(`${from.map((label) => `[${label}]`).join("")}${filter}${to.map((label) => `[${label}]`).join("")}`);
    return to;
  }

  // A still image or a clip as an endless video stream at the clip's rate (the base stream ends the overlays).
  media(media: LocalMedia): string {
    const index =
      media.kind === "image"
        ? this.input("-loop", "1", "-framerate", String(FPS), "-i", media.path)
        : this.input("-stream_loop", "-1", "-i", media.path);
    return `${index}:v`;
  }
}

interface Frame {
  width: number;
  height: number;
}

// A picture fitted inside the frame, keeping its ratio, centred over `base`.
export function fitOnto(graph: FilterGraph, base: string, picture: string, frame: Frame): string {
  const fitted = graph.add([picture], `fps=${FPS},scale=${frame.width}:${frame.height}:force_original_aspect_ratio=decrease,setsar=1`);
  return graph.add([base, fitted], "overlay=x=(W-w)/2:y=(H-h)/2:shortest=1,format=yuv420p");
}

// The generated motion over `base`: a square moving with the seed and a bar filling along the bottom over
// `seconds`. `enable` limits it to part of the clip (so a strict first or last frame stays exactly the input).
export function withMotion(graph: FilterGraph, base: string, look: PromptLook, frame: Frame, seconds: number, enable?: string): string {
  const side = even(Math.min(frame.width, frame.height) / 6);
  const bar = even(Math.max(4, frame.height / 40));
  const square = graph.input("-f", "lavfi", "-i", `color=c=${look.square}:s=${side}x${side}:r=${FPS}`);
  const filler = graph.input("-f", "lavfi", "-i", `color=c=white:s=${frame.width}x${bar}:r=${FPS}`);
  const when = enable === undefined ? "" : `:enable='${enable}'`;
  const moving = graph.add(
    [base, `${square}:v`],
    `overlay=x='mod(t*${look.speed},W-w)':y='(H-h)/2+sin(t*2+${look.phase})*(H-h)/3':shortest=1${when}`,
  );
  return graph.add([moving, `${filler}:v`], `overlay=x='-W+W*t/${seconds}':y='H-h':shortest=1${when}`);
}

// Image and video references shown as tiles in rows of up to four across the upper left of the frame, clear of
// the watermark corner, each fitted in its cell; a video reference plays (looping) in its tile.
export function withTiles(graph: FilterGraph, base: string, pictures: readonly LocalMedia[], frame: Frame): string {
  if (pictures.length === 0) return base;
  const perRow = Math.min(pictures.length, 4);
  const rows = Math.ceil(pictures.length / perRow);
  const cellWidth = even((frame.width * 0.75) / perRow);
  const cellHeight = even((frame.height * 0.6) / Math.max(rows, 2));
  const top = even(frame.height / 10);
  return pictures.reduce((current, picture, index) => {
    const x = (index % perRow) * cellWidth;
    const y = top + Math.floor(index / perRow) * cellHeight;
    const tile = graph.add([graph.media(picture)], `fps=${FPS},scale=${cellWidth}:${cellHeight}:force_original_aspect_ratio=decrease,setsar=1`);
    return graph.add([current, tile], `overlay=x=${x}+(${cellWidth}-w)/2:y=${y}+(${cellHeight}-h)/2:shortest=1`);
  }, base);
}

export function withWatermark(graph: FilterGraph, base: string, watermark: boolean): string {
  const box = watermark ? "drawbox=x=iw-iw/5-8:y=8:w=iw/5:h=ih/12:color=white@0.6:t=fill," : "";
  return graph.add([base], `${box}format=yuv420p`);
}

// A stretch of the prompt's tone, or of silence, exactly `seconds` long.
export function toneOrSilence(graph: FilterGraph, look: PromptLook | null, seconds: number): string {
  const source = look ? `sine=frequency=${look.toneHz}:sample_rate=${AUDIO_SAMPLE_RATE}` : `anullsrc=r=${AUDIO_SAMPLE_RATE}:cl=stereo`;
  const index = graph.input("-f", "lavfi", "-i", source);
  return graph.add([`${index}:a`], `${AUDIO_FORMAT},atrim=end=${seconds}`);
}

// An input's audio, cut or padded with silence to exactly `seconds`.
export function audioOf(graph: FilterGraph, media: LocalMedia, seconds: number): string {
  const index = graph.input("-i", media.path);
  return graph.add([`${index}:a`], `${AUDIO_FORMAT},apad,atrim=end=${seconds}`);
}

// Several audio parts of the same length played together.
export function mixed(graph: FilterGraph, parts: readonly string[]): string | undefined {
  if (parts.length <= 1) return parts[0];
  return graph.add(parts, `amix=inputs=${parts.length}:duration=first:dropout_transition=0`);
}

// The ffmpeg arguments that write the graph's `video` (and `audio`) streams to `path`.
export function encodeArgs(graph: FilterGraph, video: string, audio: string | undefined, seconds: number, container: string, path: string): string[] {
  return [
    ...graph.inputs,
    "-filter_complex", graph.filters.join(";"),
    "-map", `[${video}]`,
    ...(audio ? ["-map", `[${audio}]`, "-c:a", "aac", "-b:a", "96k"] : []),
    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-r", String(FPS),
    "-t", String(seconds),
    "-movflags", "+faststart",
    "-f", container,
    "-y", path,
  ];
}
