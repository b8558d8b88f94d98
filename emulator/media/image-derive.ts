import { hexToRgb, type PaletteColor } from "./image-render.js";
import { decodeRgb, encodePng, type InputPicture } from "./input-pictures.js";
import { NAMED_COLOURS, promptColours, type Rgb } from "./named-colours.js";

// The emulator's image-to-image and edit models: pictures derived from the downloaded inputs, stretched to the
// canvas. A remix is the last input recoloured toward the request's colours (the palette's, else those the prompt
// names): its brightness is kept and mapped onto a ramp black → colours → white, so shapes survive and the hue
// follows the request. An edit keeps the base image (images[0]) and changes only the edit regions: a region on
// the base is filled with the request's first colour, a region on a reference image takes that reference's pixels at
// the same place. An edit without regions tints the whole base. Each image of an independent set differs in
// strength; a sequence is the same picture panned across the set, as text to image does.

export interface EditBox {
  // Which input image the region targets: 0 is the base, later ones references.
  imageIndex: number;
  // Normalized to the image: 0 to 1.
  x: number;
  y: number;
  width: number;
  height: number;
}

// What a vendor call supplies to derive from, once its input images are downloaded.
export interface DerivationInputs {
  operation: "remix" | "edit";
  // In request order: for an edit inputs[0] is the base.
  inputs: InputPicture[];
  regions: EditBox[];
  // The input whose ratio a `source`-sized canvas keeps: the last input of a remix, the base of an edit.
  source: InputPicture;
}

export interface DerivedImageRequest extends DerivationInputs {
  width: number;
  height: number;
  prompt: string;
  count: number;
  relationship: "independent" | "sequence";
  palette?: readonly PaletteColor[] | undefined;
}

export function derivationOf(operation: "remix" | "edit", inputs: InputPicture[], regions: EditBox[]): DerivationInputs {
  return { operation, inputs, regions, source: operation === "remix" ? inputs[inputs.length - 1]! : inputs[0]! };
}

const REMIX_STRENGTH = 0.75;
const GLOBAL_EDIT_STRENGTH = 0.5;
const VARIANT_STEP = 0.1;

export function renderDerivedSet(request: DerivedImageRequest): Promise<Buffer[]> {
  return Promise.all(Array.from({ length: request.count }, (_, index) => renderDerivedImage(request, index)));
}

// Image `index` (from 0) of the set, on its own: a vendor that reports progress renders them one by one.
export async function renderDerivedImage(request: DerivedImageRequest, index: number): Promise<Buffer> {
  const rgb = request.operation === "remix" ? await remix(request, index) : await edit(request, index);
  const panned = request.relationship === "sequence" ? pan(rgb, request.width, Math.round((index * request.width) / request.count)) : rgb;
  return encodePng(panned, request.width, request.height);
}

// The request's colours, heaviest palette colour first.
function requestColours(request: DerivedImageRequest): Rgb[] {
  if (request.palette) return [...request.palette].sort((a, b) => b.weight - a.weight).map((item) => hexToRgb(item.color));
  return promptColours(request.prompt);
}

function variantStrength(base: number, request: DerivedImageRequest, index: number): number {
  return request.relationship === "independent" ? Math.max(0.2, base - VARIANT_STEP * index) : base;
}

async function remix(request: DerivedImageRequest, index: number): Promise<Buffer> {
  const rgb = await decodeRgb(request.source, request.width, request.height);
  recolour(rgb, requestColours(request), variantStrength(REMIX_STRENGTH, request, index));
  return rgb;
}

async function edit(request: DerivedImageRequest, index: number): Promise<Buffer> {
  const { width, height } = request;
  const rgb = await decodeRgb(request.source, width, height);
  const colours = requestColours(request);
  if (request.regions.length === 0) {
    recolour(rgb, colours, variantStrength(GLOBAL_EDIT_STRENGTH, request, index));
    return rgb;
  }
  const references = new Map<number, Buffer>();
  for (const region of request.regions) {
    const box = pixelBox(region, width, height);
    if (region.imageIndex === 0) {
      fillBox(rgb, width, box, colours[0]!, variantStrength(1, request, index));
      continue;
    }
    let reference = references.get(region.imageIndex);
    if (reference === undefined) {
      reference = await decodeRgb(request.inputs[region.imageIndex]!, width, height);
      references.set(region.imageIndex, reference);
    }
    copyBox(reference, rgb, width, box);
  }
  return rgb;
}

interface PixelBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function pixelBox(region: EditBox, width: number, height: number): PixelBox {
  return {
    left: Math.round(region.x * width),
    top: Math.round(region.y * height),
    right: Math.min(width, Math.round((region.x + region.width) * width)),
    bottom: Math.min(height, Math.round((region.y + region.height) * height)),
  };
}

function fillBox(rgb: Buffer, width: number, box: PixelBox, colour: Rgb, opacity: number): void {
  for (let y = box.top; y < box.bottom; y++) {
    for (let x = box.left; x < box.right; x++) {
      const at = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) rgb[at + c] = Math.round(rgb[at + c]! + (colour[c]! - rgb[at + c]!) * opacity);
    }
  }
}

function copyBox(from: Buffer, to: Buffer, width: number, box: PixelBox): void {
  for (let y = box.top; y < box.bottom; y++) {
    from.copy(to, (y * width + box.left) * 3, (y * width + box.left) * 3, (y * width + box.right) * 3);
  }
}

const luminance = (r: number, g: number, b: number) => (0.299 * r + 0.587 * g + 0.114 * b) / 255;

// Each pixel's brightness picks a point on the ramp black → colours (darkest first) → white, mixed over the
// original by `strength`.
function recolour(rgb: Buffer, colours: readonly Rgb[], strength: number): void {
  const ramp: Rgb[] = [NAMED_COLOURS.black!, ...[...colours].sort((a, b) => luminance(...a) - luminance(...b)), NAMED_COLOURS.white!];
  const segments = ramp.length - 1;
  for (let at = 0; at < rgb.length; at += 3) {
    const position = luminance(rgb[at]!, rgb[at + 1]!, rgb[at + 2]!) * segments;
    const segment = Math.min(segments - 1, Math.floor(position));
    const t = position - segment;
    const from = ramp[segment]!;
    const to = ramp[segment + 1]!;
    for (let c = 0; c < 3; c++) {
      const mapped = from[c]! + (to[c]! - from[c]!) * t;
      rgb[at + c] = Math.round(rgb[at + c]! + (mapped - rgb[at + c]!) * strength);
    }
  }
}

// Every row turned right by `byPixels`, wrapping around.
function pan(rgb: Buffer, width: number, byPixels: number): Buffer {
  if (byPixels === 0) return rgb;
  const out = Buffer.alloc(rgb.length);
  const rowBytes = width * 3;
  const split = rowBytes - byPixels * 3;
  for (let row = 0; row < rgb.length; row += rowBytes) {
    rgb.copy(out, row, row + split, row + rowBytes);
    rgb.copy(out, row + byPixels * 3, row, row + split);
  }
  return out;
}
