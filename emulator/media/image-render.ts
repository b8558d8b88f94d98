import { createHash } from "node:crypto";
import { runFfmpeg } from "../../core/media/ffmpeg.js";

// The emulator's image model: real PNGs at the requested pixel size that show what was asked for. With a palette
// the picture is vertical bands of the palette's colours, each as wide as its weight; without one it is a
// gradient between two colours derived from the prompt and seed. An independent set varies each image (other
// colours, or the bands in another order); a sequence is one scene panned across the set, so every image holds
// exactly the same colours, shifted. Every row of a picture is the same, so one row is built here and ffmpeg
// repeats it down the canvas while encoding: a 4K image costs no more memory than one line of it.

export interface PaletteColor {
  // #RRGGBB
  color: string;
  weight: number;
}

export interface ImageSetRequest {
  width: number;
  height: number;
  prompt: string;
  seed: number;
  count: number;
  relationship: "independent" | "sequence";
  palette?: readonly PaletteColor[] | undefined;
}

type Rgb = readonly [number, number, number];

export function renderImageSet(request: ImageSetRequest): Promise<Buffer[]> {
  return Promise.all(Array.from({ length: request.count }, (_, index) => renderImage(request, index)));
}

// Image `index` (from 0) of the set, on its own: a vendor that reports progress renders them one by one.
export function renderImage(request: ImageSetRequest, index: number): Promise<Buffer> {
  return encodePng(imageRow(request, index), request.width, request.height);
}

function imageRow(request: ImageSetRequest, index: number): Buffer {
  const variant = request.relationship === "independent" ? index : 0;
  const digest = createHash("sha256").update(`${request.prompt}\n${request.seed}\n${variant}`).digest();
  const row = request.palette
    ? paletteRow(request.palette, request.width, digest.readUInt32BE(0) % request.palette.length)
    : gradientRow(request.width, digest);
  if (request.relationship === "independent") return row;
  return rolled(row, Math.round((index * request.width) / request.count));
}

// Band k starts at the rounded cumulative weight of the bands before it, so the bands fill the width exactly
// and each colour covers its weight of the picture to within a pixel column.
function paletteRow(palette: readonly PaletteColor[], width: number, firstBand: number): Buffer {
  const ordered = [...palette.slice(firstBand), ...palette.slice(0, firstBand)];
  const row = Buffer.alloc(width * 3);
  let cumulative = 0;
  for (const band of ordered) {
    const start = Math.round(cumulative * width);
    cumulative += band.weight;
    const end = band === ordered.at(-1) ? width : Math.round(cumulative * width);
    const rgb = hexToRgb(band.color);
    for (let x = start; x < end; x++) row.set(rgb, x * 3);
  }
  return row;
}

// There and back again (A → B → A), so that a panned sequence wraps around without a seam.
function gradientRow(width: number, digest: Buffer): Buffer {
  const hue = (digest.readUInt16BE(4) / 0xffff) * 360;
  const from = hslToRgb(hue, 0.55 + (digest[6]! / 255) * 0.3, 0.45 + (digest[7]! / 255) * 0.15);
  const to = hslToRgb(hue + 90 + (digest[8]! / 255) * 180, 0.55 + (digest[9]! / 255) * 0.3, 0.45 + (digest[10]! / 255) * 0.15);
  const row = Buffer.alloc(width * 3);
  for (let x = 0; x < width; x++) {
    const t = 1 - Math.abs((2 * x) / width - 1);
    row.set(from.map((channel, i) => Math.round(channel + (to[i]! - channel) * t)), x * 3);
  }
  return row;
}

function rolled(row: Buffer, byPixels: number): Buffer {
  const split = row.length - byPixels * 3;
  return Buffer.concat([row.subarray(split), row.subarray(0, split)]);
}

function encodePng(row: Buffer, width: number, height: number): Promise<Buffer> {
  return runFfmpeg(
    [
      "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${width}x1`, "-i", "pipe:0",
      "-vf", `scale=${width}:${height}:flags=neighbor`,
      "-frames:v", "1", "-c:v", "png", "-pix_fmt", "rgb24", "-f", "image2pipe", "pipe:1",
    ],
    row,
  );
}

export function hexToRgb(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

function hslToRgb(hueDegrees: number, saturation: number, lightness: number): Rgb {
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const sector = (((hueDegrees % 360) + 360) % 360) / 60;
  const second = chroma * (1 - Math.abs((sector % 2) - 1));
  const [r, g, b] =
    sector < 1 ? [chroma, second, 0] :
    sector < 2 ? [second, chroma, 0] :
    sector < 3 ? [0, chroma, second] :
    sector < 4 ? [0, second, chroma] :
    sector < 5 ? [second, 0, chroma] : [chroma, 0, second];
  const base = lightness - chroma / 2;
  return [r, g, b].map((channel) => Math.round((channel + base) * 255)) as unknown as Rgb;
}
