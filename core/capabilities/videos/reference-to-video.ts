import { z } from "zod";
import { videoModelsFor } from "../../catalog/video-models.js";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { referenceSchema } from "../../contracts/media-input.js";
import { videoOptionFields, videoText } from "../../contracts/video-options.js";
import { modelField } from "../model-field.js";
import { billedSeconds } from "./pricing.js";
import { prepareVideoGeneration, VIDEO_GENERATION_DEADLINE_SECONDS } from "./prepare-generation.js";
import { referenceRequirements } from "./reference-requirements.js";
import { durationRequirements, optionRequirements } from "./requirements.js";
import { defineCapability } from "../define.js";

const MODEL_IDS = videoModelsFor("reference_to_video").map((m) => m.id);

export const referenceToVideoInputSchema = z
  .object({
    ...commonCreateFields,
    model: modelField("reference_to_video", MODEL_IDS),
    ...videoOptionFields,
    prompt: videoText.optional().describe("The clip to compose (max 20000 chars)."),
    references: z
      .array(referenceSchema)
      .min(1)
      .max(50)
      .describe("Ordered references; the model must take them all."),
  })
  .strict();

export type ReferenceToVideoInput = z.infer<typeof referenceToVideoInputSchema> & CommonCreateInput;

export const referenceToVideoCapability = defineCapability({
  id: "reference_to_video",
  path: "/v1/videos/reference-to-video",
  area: "videos",
  summary: "Reference to video: compose a clip from 1 to 50 ordered image, video or audio references.",
  tool: {
    name: "svc.videos.generate_from_references",
    title: "Generate a video from references",
    description:
      "Generate a video guided by ordered references (subjects, scenes, motion, voices). The model must accept every reference kind and count; nothing is dropped.",
  },
  inputSchema: referenceToVideoInputSchema,
  modelIds: MODEL_IDS,
  example: {
    prompt: "The subject walks through a sunlit market.",
    references: [{ kind: "image", media: { type: "url", url: "https://example.com/subject.png" }, role: "subject" }],
  },
  output: { type: "artifact_kind", clips: false },
  billingMode: "prepaid",
  deadlineSeconds: VIDEO_GENERATION_DEADLINE_SECONDS,
  prepare: (input, ctx) =>
    prepareVideoGeneration(
      {
        capability: "reference_to_video",
        model: input.model,
        resolution: input.resolution,
        requirements: [
          ...referenceRequirements(input.references),
          ...durationRequirements(input.duration),
          ...optionRequirements(input),
        ],
        seconds: (m) => billedSeconds(m, input.duration),
      },
      ctx,
    ),
});
