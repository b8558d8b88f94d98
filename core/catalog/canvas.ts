// The pixel size of a canvas preset, defined once for the catalog, the adapters and the tests (the vendor emulator
// keeps its own copy, emulator/media/canvas-size.ts, so that what adapters send is checked, not derived). A tier
// names the long edge in units of 1024 pixels ("2K" → 2048); the aspect fixes the short edge, rounded to a multiple
// of 8 because image models work on 8-pixel latent blocks. 2K 16:9 is 2048 × 1152; 1K 1:1 is 1024².

export interface PixelSize {
  width: number;
  height: number;
}

const PIXELS_PER_TIER_STEP = 1024;
const EDGE_MULTIPLE = 8;

export class CanvasSizeError extends Error {}

export function tierLongEdge(tier: string): number {
  const match = /^([1-9]\d*)K$/.exec(tier);
  if (!match) throw new CanvasSizeError(`canvas tier ${JSON.stringify(tier)} is not of the form 1K, 2K, 4K`);
  return Number(match[1]) * PIXELS_PER_TIER_STEP;
}

// "source" has no size of its own: it is the input image's ratio, which only an image-to-image request knows.
export function parseAspect(aspect: string): { across: number; down: number } {
  const match = /^([1-9]\d*):([1-9]\d*)$/.exec(aspect);
  if (!match) throw new CanvasSizeError(`canvas aspect ${JSON.stringify(aspect)} is not a ratio such as 16:9`);
  return { across: Number(match[1]), down: Number(match[2]) };
}

export function canvasPixelSize(tier: string, aspect: string): PixelSize {
  const longEdge = tierLongEdge(tier);
  const { across, down } = parseAspect(aspect);
  const shortEdge = (ratio: number) => Math.max(EDGE_MULTIPLE, Math.round((longEdge * ratio) / EDGE_MULTIPLE) * EDGE_MULTIPLE);
  return across >= down ? { width: longEdge, height: shortEdge(down / across) } : { width: shortEdge(across / down), height: longEdge };
}

// The ratio of an input image, reduced ("source" made concrete): 1600 × 1200 → "4:3". An odd size keeps its own
// ratio (1000 × 667 → "1000:667"), which canvasPixelSize renders like any other.
export function sourceAspect(size: PixelSize): string {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const divisor = gcd(size.width, size.height);
  return `${size.width / divisor}:${size.height / divisor}`;
}
