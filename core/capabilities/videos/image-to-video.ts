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

const MODEL_IDS = videoModelsFor("image_to_video").map((m) => m.id);

export const imageToVideoInputSchema = z
  .object({
    ...commonCreateFields,
    model: modelField("image_to_video", MODEL_IDS),
    ...videoOptionFields,
    prompt: videoText.optional().describe("Motion, scene, camera directions (max 20000 chars)."),
    image: mediaInput({ kind: "image", description: "Exact first frame, not a loose reference." }),
    driving_audio: mediaInput({ kind: "audio", description: "Audio that drives the video." }).optional(),
  })
  .strict();

export type ImageToVideoInput = z.infer<typeof imageToVideoInputSchema> & CommonCreateInput;

export const imageToVideoCapability = defineCapability({
  id: "image_to_video",
  path: "/v1/videos/image-to-video",
  area: "videos",
  summary: "Image to video: animate a strict first frame, with optional motion prompt and driving audio.",
  tool: {
    name: "svc.videos.generate_from_image",
    title: "Animate an image into a video",
    description:
      "Generate a video that starts on the given image as its exact first frame.",
  },
  inputSchema: imageToVideoInputSchema,
  modelIds: MODEL_IDS,
  example: { image: { type: "url", url: "https://example.com/first-frame.png" }, prompt: "The camera slowly pushes in." },
  output: { type: "artifact_kind", clips: false },
  billingMode: "prepaid",
  deadlineSeconds: VIDEO_GENERATION_DEADLINE_SECONDS,
  prepare: (input, ctx) =>
    prepareVideoGeneration(
      {
        capability: "image_to_video",
        model: input.model,
        resolution: input.resolution,
        requirements: [
          ...durationRequirements(input.duration),
          ...optionRequirements(input),
          ...(input.driving_audio !== undefined ? [drivingAudioRequirement("/driving_audio")] : []),
        ],
        seconds: (m) => billedSeconds(m, input.duration),
      },
      ctx,
    ),
});
