import { parseAspect } from "../../catalog/canvas.js";
import type { ImageInputsAsk } from "../image-inputs.js";

// The five ratios Imagen renders (docs/providers/vendorE.md); it refuses any other.
const IMAGEN_ASPECTS = ["1:1", "3:4", "4:3", "9:16", "16:9"] as const;

// Compared on a log scale, so that 1:2 and 2:1 lie as far from 1:1 as each other.
function logRatio(aspect: string): number {
  const { across, down } = parseAspect(aspect);
  return Math.log(across / down);
}

// The ratio an image-to-image or edit request is sent at. A named ratio goes as asked (the catalog offers Imagen's
// five only); `source`, the input image's own ratio, goes as the nearest of the five, which Imagen then renders at
// its own size for that ratio rather than the input's.
export function imagenAspect(ask: ImageInputsAsk): string {
  if (ask.canvas.aspect !== "source") return ask.aspect;
  const wanted = logRatio(ask.aspect);
  const distance = (aspect: string) => Math.abs(logRatio(aspect) - wanted);
  return IMAGEN_ASPECTS.reduce<string>((nearest, aspect) => (distance(aspect) < distance(nearest) ? aspect : nearest), "1:1");
}
