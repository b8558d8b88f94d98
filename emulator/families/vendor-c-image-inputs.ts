import { z } from "zod";
import { derivationOf, type DerivationInputs } from "../media/image-derive.js";
import { downloadPictures, InputPictureError } from "../media/input-pictures.js";

// vendorC image2image jobs (docs/providers/vendorC-image.md): the input names its `function` (`remix` for
// image-to-image, `description_edit` for a whole-image edit, `description_edit_with_mask` for edit regions) and
// the input images as URLs the model downloads, in order (an edit's base first); `mask_regions` index them.

export const FUNCTIONS = ["remix", "description_edit", "description_edit_with_mask"] as const;

export const image2imageInputSchema = z
  .object({
    function: z.enum(FUNCTIONS),
    prompt: z.string().trim().min(1),
    negative_prompt: z.string().min(1).optional(),
    images: z.array(z.url()).min(1),
    mask_regions: z
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
  })
  .strict();

export type Image2ImageInput = z.infer<typeof image2imageInputSchema>;

// The downloaded inputs of the job, or the vendor's reason for refusing it.
export async function readSynthesisInputs(input: Image2ImageInput): Promise<DerivationInputs | string> {
  const regions = input.mask_regions ?? [];
  if ((input.function === "description_edit_with_mask") !== regions.length > 0) {
    return "mask_regions are required by description_edit_with_mask and refused by every other function";
  }
  const outside = regions.find((region) => region.image_index >= input.images.length);
  if (outside) return `mask_regions: image_index ${outside.image_index} is not one of the ${input.images.length} images`;
  try {
    const inputs = await downloadPictures(input.images);
    return derivationOf(
      input.function === "remix" ? "remix" : "edit",
      inputs,
      regions.map(({ image_index: imageIndex, ...box }) => ({ imageIndex, ...box })),
    );
  } catch (error) {
    if (error instanceof InputPictureError) return `images: ${error.message}`;
    throw error;
  }
}
