import { createHash } from "node:crypto";

// The colours the emulated image models understand by name: a prompt that names one asks for it ("make it
// blue"), and the emulated vision models name what they see with the same words. One table, so what an edit paints
// is what an understanding answer calls it.

export type Rgb = readonly [number, number, number];

export const NAMED_COLOURS: Readonly<Record<string, Rgb>> = {
  black: [0, 0, 0],
  white: [255, 255, 255],
  gray: [128, 128, 128],
  red: [220, 30, 30],
  orange: [255, 140, 0],
  yellow: [255, 215, 0],
  green: [30, 160, 60],
  cyan: [0, 200, 210],
  blue: [30, 80, 230],
  purple: [130, 50, 170],
  pink: [255, 120, 180],
  brown: [140, 85, 40],
};

const SYNONYMS: Readonly<Record<string, string>> = { grey: "gray", violet: "purple", teal: "cyan", magenta: "pink" };

// The colours a prompt names, in the order it names them; a prompt naming none gets one colour of its own,
// derived from its text, so that every prompt still steers the picture.
export function promptColours(prompt: string): Rgb[] {
  const named: Rgb[] = [];
  for (const word of prompt.toLowerCase().match(/[a-z]+/g) ?? []) {
    const name = SYNONYMS[word] ?? word;
    const colour = NAMED_COLOURS[name];
    if (colour && !named.includes(colour)) named.push(colour);
  }
  if (named.length > 0) return named;
  const digest = createHash("sha256").update(prompt).digest();
  return [[digest[0]!, digest[1]!, digest[2]!]];
}

// The name of the table colour nearest to a pixel (plain RGB distance: the table's colours are far apart).
export function nearestColourName(r: number, g: number, b: number): string {
  let best = "black";
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [name, [cr, cg, cb]] of Object.entries(NAMED_COLOURS)) {
    const distance = (r - cr) ** 2 + (g - cg) ** 2 + (b - cb) ** 2;
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

export function rgbHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((channel) => channel.toString(16).padStart(2, "0")).join("").toUpperCase()}`;
}

// A colour seen in a picture or frame: its nearest named colour, the average of the pixels it names, and its share.
export interface DominantColour {
  name: string;
  hex: string;
  // The share of the pixels, 0 to 1.
  share: number;
}

// Colours covering less than this share of a picture are not worth naming.
const MIN_SHARE = 0.05;

// The named colours of packed RGB pixels, largest share first.
export function dominantColours(rgb: Uint8Array): DominantColour[] {
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
    .sort((a, b) => b.share - a.share);
}
