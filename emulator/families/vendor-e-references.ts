import { z } from "zod";
import { derivationOf, type DerivationInputs, type EditBox } from "../media/image-derive.js";
import { downloadPictures } from "../media/input-pictures.js";

// vendorE reference images (docs/providers/vendorE.md): image-to-image and edits send the input images as RAW
// references with their bytes inline, as Imagen takes them, and an edit's regions as box MASK references on the
// RAW image they target (the service's form: Imagen's masks are mask images). Without `editMode` the references
// restyle (image-to-image); with it the first RAW reference is the base. Inline bytes are read as data: URLs.

export const referenceImageSchema = z.discriminatedUnion("referenceType", [
  z
    .object({
      referenceId: z.number().int().min(1),
      referenceType: z.literal("REFERENCE_TYPE_RAW"),
      referenceImage: z.object({ bytesBase64Encoded: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/), mimeType: z.string().optional() }).strict(),
    })
    .strict(),
  z
    .object({
      referenceId: z.number().int().min(1),
      referenceType: z.literal("REFERENCE_TYPE_MASK"),
      maskImageConfig: z
        .object({
          maskMode: z.literal("MASK_MODE_BOX"),
          targetReferenceId: z.number().int().min(1),
          box: z.object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1), width: z.number().gt(0).max(1), height: z.number().gt(0).max(1) }).strict(),
        })
        .strict(),
    })
    .strict(),
]);
export type ReferenceImage = z.infer<typeof referenceImageSchema>;

export const EDIT_MODES = ["EDIT_MODE_DEFAULT", "EDIT_MODE_INPAINT_INSERTION"] as const;

// The references put in order and downloaded, or the vendor's reason for refusing them.
export async function readReferences(references: readonly ReferenceImage[], editMode: string | undefined): Promise<DerivationInputs | string> {
  const raw = references.filter((reference) => reference.referenceType === "REFERENCE_TYPE_RAW");
  const masks = references.filter((reference) => reference.referenceType === "REFERENCE_TYPE_MASK");
  const ids = references.map((reference) => reference.referenceId);
  if (new Set(ids).size !== ids.length) return "referenceId values must be unique";
  if (raw.length === 0) return "at least one REFERENCE_TYPE_RAW reference image is required";
  if (masks.length > 0 && editMode !== "EDIT_MODE_INPAINT_INSERTION") return "mask references need editMode EDIT_MODE_INPAINT_INSERTION";
  const regions: EditBox[] = [];
  for (const mask of masks) {
    const target = raw.findIndex((reference) => reference.referenceId === mask.maskImageConfig.targetReferenceId);
    if (target < 0) return `mask ${mask.referenceId} targets ${mask.maskImageConfig.targetReferenceId}, which is not a raw reference`;
    regions.push({ imageIndex: target, ...mask.maskImageConfig.box });
  }
  const inputs = await downloadPictures(raw.map((reference) => `data:${reference.referenceImage.mimeType ?? "image/png"};base64,${reference.referenceImage.bytesBase64Encoded}`));
  return derivationOf(editMode === undefined ? "remix" : "edit", inputs, regions);
}
