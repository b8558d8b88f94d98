import type { ImageInputsAsk } from "../image-inputs.js";
import { predictParameters } from "./parameters.js";

// vendorE image-to-image and edits (docs/providers/vendorE.md): the same predict call as text to image, with the
// input images as numbered reference images the vendor downloads. An edit names its mode; its base is reference 1
// and each edit region is a box mask on the reference it targets.

export function referencePredictBody(ask: ImageInputsAsk) {
  const raw = ask.images.map((image, index) => ({
    referenceId: index + 1,
    referenceType: "REFERENCE_TYPE_RAW",
    referenceImage: { imageUri: image.url },
  }));
  const masks = ask.edit_regions.map((region, index) => ({
    referenceId: ask.images.length + index + 1,
    referenceType: "REFERENCE_TYPE_MASK",
    maskImageConfig: {
      maskMode: "MASK_MODE_BOX",
      targetReferenceId: region.image_index + 1,
      box: { x: region.x, y: region.y, width: region.width, height: region.height },
    },
  }));
  const editMode = ask.edit_regions.length > 0 ? "EDIT_MODE_INPAINT" : "EDIT_MODE_DEFAULT";
  return {
    instances: [{ prompt: ask.prompt, referenceImages: [...raw, ...masks] }],
    parameters: {
      ...predictParameters(ask, ask.aspect, ask.output_relationship),
      ...(ask.capability === "image_edit" ? { editMode } : {}),
    },
  };
}
