// The pixel size the emulated image vendors render a tier at an aspect in. A tier names the long edge in units
// of 1024 pixels ("2K" → 2048); the aspect fixes the short edge, rounded to a multiple of 8 (image models work on
// 8-pixel latent blocks). The emulator keeps its own copy of this rule: the adapters' sizes are checked against
// it, not derived from it.

export interface PixelSize {
  width: number;
  height: number;
}

const PIXELS_PER_TIER_STEP = 1024;
const EDGE_MULTIPLE = 8;

export class CanvasSizeError extends Error {}

function tierLongEdge(tier: string): number {
  const match = /^([1-9]\d*)K$/.exec(tier);
  if (!match) throw new CanvasSizeError(`canvas tier ${JSON.stringify(tier)} is not of the form 1K, 2K, 4K`);
  return Number(match[1]) * PIXELS_PER_TIER_STEP;
}

function parseAspect(aspect: string): { across: number; down: number } {
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

// The reduced ratio of an input image (1600 × 1200 → "4:3"), at which a model may render instead of a named one.
export function sourceAspect(size: PixelSize): string {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const divisor = gcd(size.width, size.height);
  return `${size.width / divisor}:${size.height / divisor}`;
}
