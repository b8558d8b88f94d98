import { z } from "zod";
import { derivationOf, type DerivationInputs, type EditBox } from "../media/image-derive.js";
import { downloadPictures, InputPictureError, picturesProblem, type InputPicture } from "../media/input-pictures.js";
import { vendorInputBounds } from "../vendors/input-limits.js";
import { WAN_IMAGE_LIMITS, type WanImageModel } from "./vendor-c-image-models.js";

// What Wan 2.7 image generation and editing accepts of a task (docs/providers/vendorC-image.md): one user message
// of text and input images, the parameters, and the input images themselves once downloaded.

const L = WAN_IMAGE_LIMITS;

const contentItemSchema = z.union([z.object({ text: z.string() }).strict(), z.object({ image: z.string().min(1) }).strict()]);

const boxSchema = z.tuple([z.number().int().min(0), z.number().int().min(0), z.number().int().min(0), z.number().int().min(0)]);

export const generationSchema = z
  .object({
    model: z.string().min(1),
    input: z
      .object({
        messages: z
          .array(z.object({ role: z.literal("user"), content: z.array(contentItemSchema).min(1) }).strict())
          .length(1),
      })
      .strict(),
    parameters: z
      .object({
        size: z.string().regex(/^(1K|2K|4K|\d+\*\d+)$/, "size must be 1K, 2K, 4K or width*height"),
        n: z.number().int().min(1).optional(),
        enable_sequential: z.boolean().optional(),
        thinking_mode: z.boolean().optional(),
        watermark: z.boolean().optional(),
        seed: z.number().int().min(0).max(L.maxSeed).optional(),
        negative_prompt: z.string().min(1).max(L.maxNegativePromptCharacters).optional(),
        bbox_list: z.array(z.array(boxSchema)).optional(),
      })
      .strict(),
  })
  .strict();

export type GenerationRequest = z.infer<typeof generationSchema>;

export interface ReadTask {
  prompt: string;
  imageUrls: string[];
  width: number;
  height: number;
  count: number;
  sequential: boolean;
}

// The pixel size a `size` names: a tier is its square, `W*H` itself.
function sizeOf(size: string): { width: number; height: number } {
  const side = L.tierSide[size as keyof typeof L.tierSide];
  if (side !== undefined) return { width: side, height: side };
  const [width, height] = size.split("*").map(Number) as [number, number];
  return { width, height };
}

// The task as the vendor reads it, or its reason for refusing it.
export function readTask(model: WanImageModel, request: GenerationRequest): ReadTask | string {
  const content = request.input.messages[0]?.content ?? [];
  const prompt = content.flatMap((item) => ("text" in item ? [item.text] : [])).join("\n").trim();
  const imageUrls = content.flatMap((item) => ("image" in item ? [item.image] : []));
  const { parameters } = request;
  if (prompt === "") return "input.messages[0].content must include a non-empty text";
  if ([...prompt].length > L.maxTextCharacters) return `text exceeds ${L.maxTextCharacters} characters`;
  if (imageUrls.length > L.maxInputImages) return `at most ${L.maxInputImages} input images`;
  const sequential = parameters.enable_sequential === true;
  const count = parameters.n ?? (sequential ? L.maxSequentialCount : 1);
  const maxCount = sequential ? L.maxSequentialCount : L.maxCount;
  if (count > maxCount) return `n must be 1 to ${maxCount}${sequential ? " with enable_sequential" : ""}`;
  const { width, height } = sizeOf(parameters.size);
  const tier = imageUrls.length === 0 && !sequential ? model.textToImageTier : L.editTier;
  const side = L.tierSide[tier];
  if (width * height > side * side) return `size ${parameters.size} exceeds ${tier} for this request`;
  if (Math.max(width, height) > L.maxAspect * Math.min(width, height)) return `size ${parameters.size} is outside 1:8 to 8:1`;
  if (parameters.bbox_list !== undefined && parameters.bbox_list.length !== imageUrls.length) {
    return `bbox_list must hold one list of boxes per input image (${imageUrls.length})`;
  }
  return { prompt, imageUrls, width, height, count, sequential };
}

// The boxes of each input image as regions normalized to it, or the vendor's reason for refusing one.
function regionsOf(bboxList: GenerationRequest["parameters"]["bbox_list"], pictures: InputPicture[]): EditBox[] | string {
  const regions: EditBox[] = [];
  for (const [imageIndex, boxes] of (bboxList ?? []).entries()) {
    const picture = pictures[imageIndex]!;
    for (const [x1, y1, x2, y2] of boxes) {
      if (x1 >= x2 || y1 >= y2 || x2 > picture.width || y2 > picture.height) return `bbox_list[${imageIndex}]: box ${JSON.stringify([x1, y1, x2, y2])} is not inside image ${imageIndex + 1}`;
      regions.push({ imageIndex, x: x1 / picture.width, y: y1 / picture.height, width: (x2 - x1) / picture.width, height: (y2 - y1) / picture.height });
    }
  }
  return regions;
}

// The downloaded inputs as the emulator derives from them: with boxes, an edit of images[0] in those regions;
// without, the last image restyled (the task's output follows the last input, as the vendor's guide says).
export async function readInputs(modelId: string, imageUrls: string[], bboxList: GenerationRequest["parameters"]["bbox_list"]): Promise<DerivationInputs | string> {
  let pictures: InputPicture[];
  try {
    pictures = await downloadPictures(imageUrls);
  } catch (error) {
    if (error instanceof InputPictureError) return `images: ${error.message}`;
    throw error;
  }
  const refused = picturesProblem(vendorInputBounds("vendorC", modelId), pictures);
  if (refused !== null) return refused;
  const regions = regionsOf(bboxList, pictures);
  if (typeof regions === "string") return regions;
  return derivationOf(regions.length > 0 ? "edit" : "remix", pictures, regions);
}
