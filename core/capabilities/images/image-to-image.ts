import { z } from "zod";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { imageOptionFields, outputRelationshipSchema } from "../../contracts/image-options.js";
import { mediaInput } from "../../contracts/media-input.js";
import { modelField } from "../model-field.js";
import { imageModelsFor, prepareImageGeneration } from "./image-generation.js";
import { imageOptionRequirements, inputImagesRequirement, outputRelationshipRequirement, tierWithInputsRequirement } from "./image-requirements.js";
import { defineCapability } from "../define.js";

const CAPABILITY_ID = "image_to_image";
const MODEL_IDS = imageModelsFor(CAPABILITY_ID).map((m) => m.id);

export const imageToImageInputSchema = z
  .object({
    ...commonCreateFields,
    ...imageOptionFields("16:9", modelField(CAPABILITY_ID, MODEL_IDS)),
    images: z
      .array(mediaInput({ kind: "image" }))
      .min(1, "must have at least 1 image")
      .max(4, "must have at most 4 images")
      .describe("Ordered reference images; aspect source follows the last."),
    output_relationship: outputRelationshipSchema,
  })
  .strict();

export type ImageToImageInput = z.infer<typeof imageToImageInputSchema> & CommonCreateInput;

export const imageToImageCapability = defineCapability({
  id: CAPABILITY_ID,
  path: "/v1/images/image-to-image",
  area: "images",
  summary: "Image to image: one to four images guided by one to four ordered reference images.",
  tool: {
    name: "svc.images.transform",
    title: "Transform images",
    description:
      "Create one to four images from a prompt and one to four ordered reference images; canvas aspect `source` keeps the last input's ratio.",
  },
  inputSchema: imageToImageInputSchema,
  modelIds: MODEL_IDS,
  example: {
    prompt: "The same scene in winter, light snowfall",
    images: [{ type: "url", url: "https://example.com/scene.png" }],
  },
  output: { type: "artifact_kind", clips: false },
  billingMode: "prepaid",
  deadlineSeconds: 900,
  async prepare(input, ctx) {
    return prepareImageGeneration(
      CAPABILITY_ID,
      input,
      [
        ...imageOptionRequirements(input),
        outputRelationshipRequirement(input.output_relationship),
        tierWithInputsRequirement(input.canvas.tier),
        inputImagesRequirement(input.images.length),
      ],
      ctx,
    );
  },
});
