import type { ImageInputsAsk } from "../image-inputs.js";

// vendorC image-to-image and edits (docs/providers/vendorC-image.md): an image2image synthesis job, like text to
// image but with the input images as URLs the vendor downloads and a `function` naming the operation: `remix`
// (image-to-image), `description_edit` (the whole base image) or `description_edit_with_mask` (edit regions).

function operation(ask: ImageInputsAsk): string {
  if (ask.capability === "image_to_image") return "remix";
  return ask.edit_regions.length > 0 ? "description_edit_with_mask" : "description_edit";
}

export function imageInputsSynthesisBody(model: string, ask: ImageInputsAsk) {
  return {
    model,
    input: {
      function: operation(ask),
      prompt: ask.prompt,
      images: ask.images.map((image) => image.url),
      ...(ask.edit_regions.length > 0 ? { mask_regions: ask.edit_regions } : {}),
      ...(ask.negative_prompt !== undefined ? { negative_prompt: ask.negative_prompt } : {}),
    },
    parameters: {
      size: `${ask.size.width}*${ask.size.height}`,
      n: ask.count,
      sequential: ask.output_relationship === "sequence",
      // vendorC rewrites prompts unless told not to; SPEC.md keeps the prompt as written unless asked.
      prompt_extend: ask.enhance_prompt === true,
      ...(ask.seed !== undefined ? { seed: ask.seed } : {}),
    },
  };
}
