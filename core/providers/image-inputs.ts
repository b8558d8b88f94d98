import { canvasPixelSize, sourceAspect, type PixelSize } from "../catalog/canvas.js";
import type { EditRegion, ImageOptionInput } from "../contracts/image-options.js";
import type { ProviderRequestOf } from "./served-capabilities.js";

// What an image-to-image or edit request asks of a vendor, read from the input the worker hands to adapters:
// every input image is then our stored artifact, with a signed URL the vendor downloads and the size decoding
// measured. All four image families build their own wire format from this one reading.

export interface ResolvedImage {
  url: string;
  width: number;
  height: number;
  format: string;
}

export type ImageInputsCapability = "image_to_image" | "image_edit";
// The image generation capabilities: from a prompt alone, or with input images.
export type ImageCapability = "text_to_image" | ImageInputsCapability;

export interface ImageInputsAsk extends ImageOptionInput {
  capability: ImageInputsCapability;
  // In request order: for edits images[0] is the base and the rest are references.
  images: ResolvedImage[];
  output_relationship: "independent" | "sequence";
  // Always empty for image-to-image.
  edit_regions: EditRegion[];
  // The canvas as a ratio and in pixels, with `source` made concrete from the input image it names.
  aspect: string;
  size: PixelSize;
}

function resolvedImage(value: unknown, index: number): ResolvedImage {
  const image = value as Partial<ResolvedImage> & { type?: string };
  if (image.type !== "artifact" || typeof image.url !== "string" || !image.width || !image.height) {
    // The worker resolves every media input before an adapter runs; anything else is a bug on our side.
    throw new Error(`images[${index}] reached the adapter unresolved`);
  }
  return { url: image.url, width: image.width, height: image.height, format: image.format ?? "png" };
}

// The `images` of a request (image-to-image, edits, understanding) as the vendor will read them.
export function resolvedImages(input: Record<string, unknown>): ResolvedImage[] {
  return (input.images as unknown[]).map(resolvedImage);
}

export function imageInputsAsk(request: ProviderRequestOf<ImageInputsCapability>): ImageInputsAsk {
  const images = resolvedImages(request.input);
  // SPEC.md: image-to-image inherits the last input's ratio, an edit its base image's.
  const source = request.capability === "image_to_image" ? images[images.length - 1] : images[0];
  if (source === undefined) throw new Error("an image request reached the adapter without images");
  const canvas = request.input.canvas;
  const aspect = canvas.aspect === "source" ? sourceAspect(source) : canvas.aspect;
  return {
    ...request.input,
    capability: request.capability,
    images,
    // Edits offer no sequence: their images are independent.
    output_relationship: request.capability === "image_to_image" ? request.input.output_relationship : "independent",
    edit_regions: request.capability === "image_edit" ? (request.input.edit_regions ?? []) : [],
    aspect,
    size: canvasPixelSize(canvas.tier, aspect),
  };
}
