import type { ImageEditInput } from "../capabilities/images/edits.js";
import type { ImageToImageInput } from "../capabilities/images/image-to-image.js";
import { canvasPixelSize, sourceAspect, type PixelSize } from "../catalog/canvas.js";
import type { EditRegion, ImageOptionInput } from "../contracts/image-options.js";
import type { ProviderRequest } from "./types.js";

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

export function isImageInputsCapability(capability: string): capability is ImageInputsCapability {
  return capability === "image_to_image" || capability === "image_edit";
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

// Takes an untyped request while vendorC/image.ts hands it one; typed callers pass ProviderRequestOf<ImageInputsCapability>.
export function imageInputsAsk(request: ProviderRequest): ImageInputsAsk {
  if (!isImageInputsCapability(request.capability)) throw new Error(`${request.capability} takes no input images`);
  // eslint-disable-next-line no-restricted-syntax -- the untyped request above: its input is this capability's, media resolved.
  const input = request.input as unknown as Omit<ImageToImageInput, "images"> & Partial<Pick<ImageEditInput, "edit_regions">>;
  const images = resolvedImages(request.input);
  // SPEC.md: image-to-image inherits the last input's ratio, an edit its base image's.
  const source = request.capability === "image_to_image" ? images[images.length - 1] : images[0];
  if (source === undefined) throw new Error("an image request reached the adapter without images");
  const aspect = input.canvas.aspect === "source" ? sourceAspect(source) : input.canvas.aspect;
  return {
    ...input,
    capability: request.capability,
    images,
    output_relationship: input.output_relationship ?? "independent",
    edit_regions: input.edit_regions ?? [],
    aspect,
    size: canvasPixelSize(input.canvas.tier, aspect),
  };
}
