import type { EditRegion } from "../../contracts/image-options.js";
import type { ImageInputsAsk, ResolvedImage } from "../image-inputs.js";

// vendorC image-to-image and edits on Wan 2.7 (docs/providers/vendorC-image.md): the same message as text to image
// with the input images after the text, in request order (an edit's base first), and an edit's regions as
// `bbox_list`, one list of boxes per input image in that order.

// A region as the vendor boxes it: [x1, y1, x2, y2] in the pixels of the image it lies on.
function box(region: EditRegion, image: ResolvedImage): [number, number, number, number] {
  return [
    Math.round(region.x * image.width),
    Math.round(region.y * image.height),
    Math.round((region.x + region.width) * image.width),
    Math.round((region.y + region.height) * image.height),
  ];
}

function bboxList(ask: ImageInputsAsk): [number, number, number, number][][] {
  return ask.images.map((image, index) => ask.edit_regions.filter((region) => region.image_index === index).map((region) => box(region, image)));
}

export function imageInputsSynthesisBody(model: string, ask: ImageInputsAsk) {
  return {
    model,
    input: { messages: [{ role: "user", content: [{ text: ask.prompt }, ...ask.images.map((image) => ({ image: image.url }))] }] },
    parameters: {
      size: `${ask.size.width}*${ask.size.height}`,
      n: ask.count,
      ...(ask.output_relationship === "sequence" ? { enable_sequential: true } : {}),
      ...(ask.negative_prompt !== undefined ? { negative_prompt: ask.negative_prompt } : {}),
      ...(ask.seed !== undefined ? { seed: ask.seed } : {}),
      ...(ask.edit_regions.length > 0 ? { bbox_list: bboxList(ask) } : {}),
    },
  };
}
