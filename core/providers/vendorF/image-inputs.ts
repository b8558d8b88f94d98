import type { ImageInputsAsk } from "../image-inputs.js";
import { imageTaskFields } from "./task-input.js";

// vendorF image-to-image (`mode: "remix"`) and edits (`mode: "edit"`): the same image task as text to image, with
// the input images as URLs the vendor downloads, in order; an edit's base is images[0] and its regions index them.
export function imageInputsTaskInput(ask: ImageInputsAsk) {
  return {
    ...imageTaskFields(ask, ask.size, ask.output_relationship),
    mode: ask.capability === "image_edit" ? "edit" : "remix",
    images: ask.images.map((image) => ({ url: image.url })),
    ...(ask.edit_regions.length > 0 ? { edit_regions: ask.edit_regions } : {}),
  };
}
