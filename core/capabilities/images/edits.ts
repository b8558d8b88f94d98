import { z } from "zod";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { editRegionSchema, imageOptionFields } from "../../contracts/image-options.js";
import { mediaInput } from "../../contracts/media-input.js";
import { failure, type FieldFailure } from "../../errors/index.js";
import { modelField } from "../model-field.js";
import { imageModelsFor, prepareImageGeneration } from "./image-generation.js";
import { editRegionRequirements, imageOptionRequirements, inputImagesRequirement, tierWithInputsRequirement } from "./image-requirements.js";
import { defineCapability } from "../define.js";

const CAPABILITY_ID = "image_edit";
const MODEL_IDS = imageModelsFor(CAPABILITY_ID).map((m) => m.id);

export const imageEditInputSchema = z
  .object({
    ...commonCreateFields,
    ...imageOptionFields("source", modelField(CAPABILITY_ID, MODEL_IDS)),
    images: z
      .array(mediaInput({ kind: "image" }))
      .min(1, "must have at least the base image")
      .describe("images[0] is the base to edit; the rest are ordered references."),
    edit_regions: z
      .array(editRegionSchema)
      .min(1, "must have at least 1 region when given")
      .optional()
      .describe("Rectangles to confine the edit to; omit to edit freely."),
  })
  .strict();

export type ImageEditInput = z.infer<typeof imageEditInputSchema> & CommonCreateInput;

function regionTargets(input: ImageEditInput): FieldFailure[] {
  return (input.edit_regions ?? []).flatMap((region, index) =>
    region.image_index < input.images.length
      ? []
      : [failure(["edit_regions", index, "image_index"], `must index one of the ${input.images.length} images (0 to ${input.images.length - 1})`)],
  );
}

export const imageEditCapability = defineCapability({
  id: CAPABILITY_ID,
  path: "/v1/images/edits",
  area: "images",
  summary: "Image edit: change a base image (images[0]) following a prompt, optionally within edit regions.",
  tool: {
    name: "svc.images.edit",
    title: "Edit an image",
    description:
      "Edit the base image images[0] following a prompt; later images are ordered references and edit_regions target inputs by index.",
  },
  inputSchema: imageEditInputSchema,
  crossFieldRules: regionTargets,
  modelIds: MODEL_IDS,
  example: {
    prompt: "Replace the sky with a sunset",
    images: [{ type: "url", url: "https://example.com/photo.png" }],
  },
  output: { type: "artifact_kind", clips: false },
  billingMode: "prepaid",
  deadlineSeconds: 900,
  async prepare(input, ctx) {
    return prepareImageGeneration(
      CAPABILITY_ID,
      input,
      [...imageOptionRequirements(input), tierWithInputsRequirement(input.canvas.tier), inputImagesRequirement(input.images.length), ...editRegionRequirements(input.edit_regions)],
      ctx,
    );
  },
});
