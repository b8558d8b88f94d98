import type { ImageInputsAsk } from "../image-inputs.js";
import { storedInputBase64 } from "../stored-bytes.js";
import { predictParameters } from "./parameters.js";

// Imagen image-to-image and edits (docs/providers/vendorE.md): the same predict call as text to image, with the
// input images as numbered RAW reference images, their bytes inline (Imagen takes bytes or a Cloud Storage URI,
// not a URL). An edit names its mode; its base is reference 1. Each edit region is a box MASK reference on the RAW
// image it targets: the reference's masks are mask images, so this form is ours, not the vendor's.

export async function referencePredictBody(ask: ImageInputsAsk, signal: AbortSignal) {
  const raw = await Promise.all(
    ask.images.map(async (image, index) => ({
      referenceId: index + 1,
      referenceType: "REFERENCE_TYPE_RAW",
      referenceImage: { bytesBase64Encoded: await storedInputBase64(image.url, signal) },
    })),
  );
  const masks = ask.edit_regions.map((region, index) => ({
    referenceId: ask.images.length + index + 1,
    referenceType: "REFERENCE_TYPE_MASK",
    maskImageConfig: {
      maskMode: "MASK_MODE_BOX",
      targetReferenceId: region.image_index + 1,
      box: { x: region.x, y: region.y, width: region.width, height: region.height },
    },
  }));
  const editMode = ask.edit_regions.length > 0 ? "EDIT_MODE_INPAINT_INSERTION" : "EDIT_MODE_DEFAULT";
  return {
    instances: [{ prompt: ask.prompt, referenceImages: [...raw, ...masks] }],
    parameters: {
      ...predictParameters(ask, ask.aspect, ask.output_relationship),
      ...(ask.capability === "image_edit" ? { editMode } : {}),
    },
  };
}
