import { z } from "zod";
import { videoModelsFor } from "../../catalog/video-models.js";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { mediaInput } from "../../contracts/media-input.js";
import { videoOptionFields, videoText } from "../../contracts/video-options.js";
import { modelField } from "../model-field.js";
import { billedSeconds } from "./pricing.js";
import { prepareVideoGeneration, VIDEO_GENERATION_DEADLINE_SECONDS } from "./prepare-generation.js";
import { drivingAudioRequirement, durationRequirements, optionRequirements } from "./requirements.js";
import { defineCapability } from "../define.js";

const MODEL_IDS = videoModelsFor("text_to_video").map((m) => m.id);

export const textToVideoInputSchema = z
  .object({
    ...commonCreateFields,
    model: modelField("text_to_video", MODEL_IDS),
    ...videoOptionFields,
    prompt: videoText.describe("Subject, action, scene, camera (max 20000 chars)."),
    audio: mediaInput({ kind: "audio", description: "Audio that drives the video." }).optional(),
  })
  .strict();

export type TextToVideoInput = z.infer<typeof textToVideoInputSchema> & CommonCreateInput;

export const textToVideoCapability = defineCapability({
  id: "text_to_video",
  path: "/v1/videos/text-to-video",
  area: "videos",
  summary: "Text to video: generate a clip from a prompt, optionally driven by an audio track.",
  tool: {
    name: "svc.videos.generate",
    title: "Generate a video from text",
    description:
      "Generate a video clip from a text prompt.",
  },
  inputSchema: textToVideoInputSchema,
  modelIds: MODEL_IDS,
  example: { prompt: "A paper boat drifting down a rain-soaked street at dusk, slow tracking shot." },
  output: { type: "artifact_kind", clips: false },
  billingMode: "prepaid",
  deadlineSeconds: VIDEO_GENERATION_DEADLINE_SECONDS,
  prepare: (input, ctx) =>
    prepareVideoGeneration(
      {
        capability: "text_to_video",
        model: input.model,
        resolution: input.resolution,
        requirements: [
          ...durationRequirements(input.duration),
          ...optionRequirements(input),
          ...(input.audio !== undefined ? [drivingAudioRequirement("/audio")] : []),
        ],
        seconds: (m) => billedSeconds(m, input.duration),
      },
      ctx,
    ),
});
