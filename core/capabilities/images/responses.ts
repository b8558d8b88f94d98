import { z } from "zod";
import { UNDERSTANDING_MODELS, type UnderstandingModel } from "../../catalog/understanding-models.js";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { mediaInput } from "../../contracts/media-input.js";
import { textOfLength } from "../../contracts/text.js";
import { findPrice, priceLine } from "../../credits/pricing.js";
import { selectModel } from "../../selection/select.js";
import { requiredModelField } from "../model-field.js";
import type { Quote } from "../types.js";
import { understandingOptionFields, understandingRequirements } from "../understanding-requirements.js";
import { preparedFrom } from "../prepared.js";
import { defineCapability } from "../define.js";

const CAPABILITY_ID = "image_to_text";
export const IMAGE_INPUT_METER = "image_input";

const candidates: readonly UnderstandingModel[] = UNDERSTANDING_MODELS.filter((m) => m.capabilities.includes(CAPABILITY_ID));
const MODEL_IDS = candidates.map((m) => m.id);

export const imageUnderstandingInputSchema = z
  .object({
    ...commonCreateFields,
    // Required: SPEC.md gives no default for understanding calls.
    model: requiredModelField(CAPABILITY_ID, MODEL_IDS),
    prompt: textOfLength(1, 4000).describe("Question or instruction about the images (max 4000 chars)."),
    images: z
      .array(mediaInput({ kind: "image" }))
      .min(1, "must have at least 1 image")
      .max(8, "must have at most 8 images")
      .describe("Images to read, in order; each is billed once."),
    ...understandingOptionFields,
  })
  .strict();

export type ImageUnderstandingInput = z.infer<typeof imageUnderstandingInputSchema> & CommonCreateInput;

// Each admitted image is billed once, whatever the detail level. The hold is this estimate; nothing is
// charged until the task succeeds.
export function imageUnderstandingQuote(model: UnderstandingModel, imageCount: number): Quote {
  const line = priceLine(findPrice(model.prices, IMAGE_INPUT_METER), BigInt(imageCount));
  return { lines: [line], totalMicro: line.amountMicro, counters: { image_count: imageCount } };
}

export const imageUnderstandingCapability = defineCapability({
  id: CAPABILITY_ID,
  path: "/v1/images/responses",
  area: "images",
  summary: "Image understanding: answer a prompt about one to eight ordered images.",
  tool: {
    name: "svc.images.analyze",
    title: "Analyze images",
    description:
      "Answer a question or follow an instruction about one to eight images; billed per image after success.",
  },
  inputSchema: imageUnderstandingInputSchema,
  modelIds: MODEL_IDS,
  example: {
    model: "auto",
    prompt: "What is written on the sign?",
    images: [{ type: "url", url: "https://example.com/street.jpg" }],
  },
  output: { type: "artifact_kind", clips: false },
  billingMode: "postpaid",
  postpaidMeters: { [IMAGE_INPUT_METER]: "image_count" },
  deadlineSeconds: 600,
  async prepare(input, ctx) {
    const selection = selectModel({
      capability: CAPABILITY_ID,
      requested: input.model,
      candidates,
      isLive: (m) => ctx.isFamilyLive(m.family),
      lifecycle: ctx.lifecycle,
      known: ctx.known,
      requirements: understandingRequirements({
        modality: "image",
        mediaParam: "/images",
        prompt: input.prompt,
        imageCount: input.images.length,
        detail: input.detail,
        response_format: input.response_format,
        temperature: input.temperature,
      }),
    });
    return preparedFrom(selection, imageUnderstandingQuote(selection.model, input.images.length));
  },
});
