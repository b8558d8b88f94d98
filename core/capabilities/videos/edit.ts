import { z } from "zod";
import { videoModelsFor } from "../../catalog/video-models.js";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { referenceSchema } from "../../contracts/media-input.js";
import { videoMediaInput, videoOptionFields, videoText } from "../../contracts/video-options.js";
import { modelField } from "../model-field.js";
import { billedSeconds } from "./pricing.js";
import { prepareVideoGeneration, VIDEO_GENERATION_DEADLINE_SECONDS } from "./prepare-generation.js";
import { referenceRequirements } from "./reference-requirements.js";
import { durationRequirements, oneOf, optionRequirements } from "./requirements.js";
import { defineCapability } from "../define.js";

const MODEL_IDS = videoModelsFor("video_edit").map((m) => m.id);

export const videoEditInputSchema = z
  .object({
    ...commonCreateFields,
    model: modelField("video_edit", MODEL_IDS),
    ...videoOptionFields,
    source_video: videoMediaInput("Video to edit."),
    instruction: videoText.describe("What to change (max 20000 chars)."),
    references: z.array(referenceSchema).max(50).optional().describe("Ordered references; the model must take them all."),
    audio_setting: z
      .enum(["auto", "origin"])
      .optional()
      .describe("auto: model picks the soundtrack; origin keeps the source audio."),
  })
  .strict();

export type VideoEditInput = z.infer<typeof videoEditInputSchema> & CommonCreateInput;

export const videoEditCapability = defineCapability({
  id: "video_edit",
  path: "/v1/videos/edit",
  area: "videos",
  summary: "Video edit: change a source video by instruction, optionally guided by references.",
  tool: {
    name: "svc.videos.edit",
    title: "Edit a video",
    description:
      "Edit source_video following instruction, optionally with references and with the source audio kept (audio_setting origin).",
  },
  inputSchema: videoEditInputSchema,
  modelIds: MODEL_IDS,
  example: {
    source_video: { type: "url", url: "https://example.com/source.mp4" },
    instruction: "Make it look like a snowy winter evening.",
  },
  output: { type: "artifact_kind", clips: false },
  billingMode: "prepaid",
  deadlineSeconds: VIDEO_GENERATION_DEADLINE_SECONDS,
  prepare: (input, ctx) =>
    prepareVideoGeneration(
      {
        capability: "video_edit",
        model: input.model,
        resolution: input.resolution,
        requirements: [
          ...referenceRequirements(input.references),
          ...(input.audio_setting !== undefined
            ? [oneOf("/audio_setting", "unsupported_audio_setting", "audio_setting", input.audio_setting, (c) => c.audio_settings)]
            : []),
          ...durationRequirements(input.duration),
          ...optionRequirements(input),
        ],
        seconds: (m) => billedSeconds(m, input.duration),
      },
      ctx,
    ),
});
