import { z } from "zod";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { imageOptionFields, outputRelationshipSchema } from "../../contracts/image-options.js";
import { failure } from "../../errors/index.js";
import { modelField } from "../model-field.js";
import { imageModelsFor, prepareImageGeneration } from "./image-generation.js";
import { imageOptionRequirements, outputRelationshipRequirement, reasoningRequirements, tierWithInputsRequirement } from "./image-requirements.js";
import { defineCapability } from "../define.js";

const CAPABILITY_ID = "text_to_image";
const MODEL_IDS = imageModelsFor(CAPABILITY_ID).map((m) => m.id);

export const imageGenerationInputSchema = z
  .object({
    ...commonCreateFields,
    ...imageOptionFields("16:9", modelField(CAPABILITY_ID, MODEL_IDS)),
    output_relationship: outputRelationshipSchema,
    reasoning: z
      .boolean()
      .nullable()
      .optional()
      .describe("Model reasoning on or off; omit for its default."),
  })
  .strict();

export type ImageGenerationInput = z.infer<typeof imageGenerationInputSchema> & CommonCreateInput;

export const imageGenerationCapability = defineCapability({
  id: CAPABILITY_ID,
  path: "/v1/images/generations",
  area: "images",
  summary: "Text to image: one to four images from a prompt.",
  tool: {
    name: "svc.images.generate",
    title: "Generate images",
    description:
      "Create one to four images from a text prompt.",
  },
  inputSchema: imageGenerationInputSchema,
  // With no input image there is no source ratio to inherit.
  crossFieldRules: (input) =>
    input.canvas.aspect === "source" ? [failure(["canvas", "aspect"], "source needs an input image; give a ratio such as 16:9")] : [],
  modelIds: MODEL_IDS,
  example: { prompt: "A lighthouse on a cliff at dawn, watercolor" },
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
        ...(input.output_relationship === "sequence" ? [tierWithInputsRequirement(input.canvas.tier)] : []),
        ...reasoningRequirements(input.reasoning),
      ],
      ctx,
    );
  },
});
