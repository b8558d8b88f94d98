import { z } from "zod";
import { derivationOf, type DerivationInputs } from "../media/image-derive.js";
import { downloadPictures, InputPictureError } from "../media/input-pictures.js";

// vendorF image tasks with input images (docs/providers/vendorF.md): `mode: "remix"` (image-to-image) or
// `mode: "edit"` with `images` the model downloads, in order (an edit's base first), and for an edit optional
// `edit_regions` indexing them.

export const imageInputFields = {
  mode: z.enum(["remix", "edit"]).optional(),
  images: z.array(z.object({ url: z.url() }).strict()).min(1).optional(),
  edit_regions: z
    .array(
      z
        .object({
          image_index: z.number().int().min(0),
          x: z.number().min(0).max(1),
          y: z.number().min(0).max(1),
          width: z.number().gt(0).max(1),
          height: z.number().gt(0).max(1),
        })
        .strict(),
    )
    .min(1)
    .optional(),
};

type ImageInputFields = z.infer<z.ZodObject<typeof imageInputFields>>;

// The downloaded inputs of a remix or edit task, null for text to image, or the vendor's reason for refusing.
export async function readImageInputs(input: ImageInputFields): Promise<DerivationInputs | string | null> {
  if (input.mode === undefined) return input.images || input.edit_regions ? "images and edit_regions need a mode" : null;
  if (!input.images) return `mode ${input.mode} needs images`;
  const regions = input.edit_regions ?? [];
  if (regions.length > 0 && input.mode !== "edit") return "edit_regions need mode edit";
  const outside = regions.find((region) => region.image_index >= input.images!.length);
  if (outside) return `edit_regions: image_index ${outside.image_index} is not one of the ${input.images.length} images`;
  try {
    const inputs = await downloadPictures(input.images.map((image) => image.url));
    return derivationOf(
      input.mode,
      inputs,
      regions.map(({ image_index: imageIndex, ...box }) => ({ imageIndex, ...box })),
    );
  } catch (error) {
    if (error instanceof InputPictureError) return `images: ${error.message}`;
    throw error;
  }
}
