import { z } from "zod";
import { derivationOf, type DerivationInputs, type EditBox } from "../media/image-derive.js";
import { decodeRgb, downloadPicture, downloadPictures, picturesProblem } from "../media/input-pictures.js";
import { vendorInputBounds } from "../vendors/input-limits.js";

// vendorE reference images (docs/providers/vendorE.md): image-to-image and edits send the input images as RAW
// references with their bytes inline, as Imagen takes them. An edit's region on the base is a mask image, as
// Imagen takes it (MASK_MODE_USER_PROVIDED: white where the model paints), read here as the box it covers; a
// region on another input is a box MASK reference on the RAW image it targets (the service's form). Without
// `editMode` the references restyle (image-to-image); with it the first RAW reference is the base. Inline bytes are
// read as data: URLs.

const inlineImageSchema = z.object({ bytesBase64Encoded: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/), mimeType: z.string().optional() }).strict();
const dataUrl = (image: z.infer<typeof inlineImageSchema>) => `data:${image.mimeType ?? "image/png"};base64,${image.bytesBase64Encoded}`;

export const referenceImageSchema = z.discriminatedUnion("referenceType", [
  z
    .object({
      referenceId: z.number().int().min(1),
      referenceType: z.literal("REFERENCE_TYPE_RAW"),
      referenceImage: inlineImageSchema,
    })
    .strict(),
  z
    .object({
      referenceId: z.number().int().min(1),
      referenceType: z.literal("REFERENCE_TYPE_MASK"),
      referenceImage: inlineImageSchema.optional(),
      maskImageConfig: z.union([
        z.object({ maskMode: z.literal("MASK_MODE_USER_PROVIDED"), dilation: z.number().min(0).max(1).optional() }).strict(),
        z
          .object({
            maskMode: z.literal("MASK_MODE_BOX"),
            targetReferenceId: z.number().int().min(1),
            box: z.object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1), width: z.number().gt(0).max(1), height: z.number().gt(0).max(1) }).strict(),
          })
          .strict(),
      ]),
    })
    .strict(),
]);
export type ReferenceImage = z.infer<typeof referenceImageSchema>;

export const EDIT_MODES = ["EDIT_MODE_DEFAULT", "EDIT_MODE_INPAINT_INSERTION"] as const;

// The references put in order and downloaded, or the vendor's reason for refusing them.
export async function readReferences(modelId: string, references: readonly ReferenceImage[], editMode: string | undefined): Promise<DerivationInputs | string> {
  const raw = references.filter((reference) => reference.referenceType === "REFERENCE_TYPE_RAW");
  const masks = references.filter((reference) => reference.referenceType === "REFERENCE_TYPE_MASK");
  const ids = references.map((reference) => reference.referenceId);
  if (new Set(ids).size !== ids.length) return "referenceId values must be unique";
  if (raw.length === 0) return "at least one REFERENCE_TYPE_RAW reference image is required";
  if (masks.length > 0 && editMode !== "EDIT_MODE_INPAINT_INSERTION") return "mask references need editMode EDIT_MODE_INPAINT_INSERTION";
  const regions: EditBox[] = [];
  for (const mask of masks) {
    const config = mask.maskImageConfig;
    if (config.maskMode === "MASK_MODE_USER_PROVIDED") {
      if (mask.referenceImage === undefined) return `mask ${mask.referenceId} needs its referenceImage`;
      const covered = await maskBox(dataUrl(mask.referenceImage));
      if (covered === null) return `mask ${mask.referenceId} marks no pixel`;
      regions.push({ imageIndex: 0, ...covered });
      continue;
    }
    const target = raw.findIndex((reference) => reference.referenceId === config.targetReferenceId);
    if (target < 0) return `mask ${mask.referenceId} targets ${config.targetReferenceId}, which is not a raw reference`;
    regions.push({ imageIndex: target, ...config.box });
  }
  const inputs = await downloadPictures(raw.map((reference) => dataUrl(reference.referenceImage)));
  const refused = picturesProblem(vendorInputBounds("vendorE", modelId), inputs);
  if (refused !== null) return refused;
  return derivationOf(editMode === undefined ? "remix" : "edit", inputs, regions);
}

// The box a mask image's white pixels span, normalized to the mask; null when it marks nothing.
async function maskBox(url: string): Promise<Omit<EditBox, "imageIndex"> | null> {
  const picture = await downloadPicture(url);
  const { width, height } = picture;
  const rgb = await decodeRgb(picture, width, height, "neighbor");
  let [left, top, right, bottom] = [width, height, -1, -1];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (rgb[(y * width + x) * 3]! < 128) continue;
      left = Math.min(left, x);
      top = Math.min(top, y);
      right = Math.max(right, x);
      bottom = Math.max(bottom, y);
    }
  }
  if (right < 0) return null;
  return { x: left / width, y: top / height, width: (right - left + 1) / width, height: (bottom - top + 1) / height };
}
