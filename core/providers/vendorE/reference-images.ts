import type { ImageInputsAsk } from "../image-inputs.js";
import { storedInputBase64 } from "../stored-bytes.js";
import { boxMaskPng } from "./box-mask.js";
import { imagenAspect } from "./imagen-aspect.js";
import { predictParameters } from "./parameters.js";

// Imagen image-to-image and edits (docs/providers/vendorE.md): the same predict call as text to image, with the
// input images as numbered RAW reference images, their bytes inline (Imagen takes bytes or a Cloud Storage URI,
// not a URL). An edit names its mode; its base is reference 1. A region on the base is a MASK reference as Imagen
// takes it, a mask image of the base's size; a region on another input has no Imagen form and stays a box MASK
// reference on the RAW image it targets, a form of ours. A canvas that follows the input image is sent at the
// nearest of Imagen's ratios.

export async function referencePredictBody(ask: ImageInputsAsk, signal: AbortSignal) {
  const raw = await Promise.all(
    ask.images.map(async (image, index) => ({
      referenceId: index + 1,
      referenceType: "REFERENCE_TYPE_RAW",
      referenceImage: { bytesBase64Encoded: await storedInputBase64(image.url, signal) },
    })),
  );
  const base = ask.images[0];
  const masks = ask.edit_regions.map((region, index) => {
    const referenceId = ask.images.length + index + 1;
    if (region.image_index === 0 && base) {
      return {
        referenceId,
        referenceType: "REFERENCE_TYPE_MASK",
        referenceImage: { bytesBase64Encoded: boxMaskPng(region, base.width, base.height).toString("base64") },
        maskImageConfig: { maskMode: "MASK_MODE_USER_PROVIDED", dilation: 0 },
      };
    }
    return {
      referenceId,
      referenceType: "REFERENCE_TYPE_MASK",
      maskImageConfig: {
        maskMode: "MASK_MODE_BOX",
        targetReferenceId: region.image_index + 1,
        box: { x: region.x, y: region.y, width: region.width, height: region.height },
      },
    };
  });
  const editMode = ask.edit_regions.length > 0 ? "EDIT_MODE_INPAINT_INSERTION" : "EDIT_MODE_DEFAULT";
  return {
    instances: [{ prompt: ask.prompt, referenceImages: [...raw, ...masks] }],
    parameters: {
      ...predictParameters(ask, imagenAspect(ask), ask.output_relationship),
      ...(ask.capability === "image_edit" ? { editMode } : {}),
    },
  };
}
