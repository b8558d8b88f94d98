import { z } from "zod";
import { videoModelsFor } from "../../catalog/video-models.js";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { mediaInput } from "../../contracts/media-input.js";
import { videoOptionFields, videoText } from "../../contracts/video-options.js";
import { modelField } from "../model-field.js";
import { billedSeconds } from "./pricing.js";
import { prepareVideoGeneration, VIDEO_GENERATION_DEADLINE_SECONDS } from "./prepare-generation.js";
import { drivingAudioRequirement, durationRequirements, oneOf, optionRequirements } from "./requirements.js";
import { defineCapability } from "../define.js";

const MODEL_IDS = videoModelsFor("frames_to_video").map((m) => m.id);

export const framesToVideoInputSchema = z
  .object({
    ...commonCreateFields,
    model: modelField("frames_to_video", MODEL_IDS),
    ...videoOptionFields,
    prompt: videoText.optional().describe("Motion between the frames (max 20000 chars)."),
    first_frame: mediaInput({
      kind: "image",
      description: "Exact first frame; omit for last-frame-only.",
    }).optional(),
    last_frame: mediaInput({ kind: "image", description: "Exact last frame." }),
    driving_audio: mediaInput({ kind: "audio", description: "Audio that drives the video." }).optional(),
  })
  .strict();

export type FramesToVideoInput = z.infer<typeof framesToVideoInputSchema> & CommonCreateInput;

export const framesToVideoCapability = defineCapability({
  id: "frames_to_video",
  path: "/v1/videos/frames-to-video",
  area: "videos",
  summary: "Frames to video: generate the motion between a first and a last frame, or towards a last frame alone.",
  tool: {
    name: "svc.videos.generate_from_frames",
    title: "Generate a video between frames",
    description:
      "Generate a video that ends on last_frame and, when first_frame is given, starts on it. Omitting first_frame needs a model that advertises last-frame-only.",
  },
  inputSchema: framesToVideoInputSchema,
  modelIds: MODEL_IDS,
  example: {
    first_frame: { type: "url", url: "https://example.com/start.png" },
    last_frame: { type: "url", url: "https://example.com/end.png" },
  },
  output: { type: "artifact_kind", clips: false },
  billingMode: "prepaid",
  deadlineSeconds: VIDEO_GENERATION_DEADLINE_SECONDS,
  prepare: (input, ctx) => {
    const mode = input.first_frame === undefined ? "last_only" : "first_and_last";
    return prepareVideoGeneration(
      {
        capability: "frames_to_video",
        model: input.model,
        resolution: input.resolution,
        requirements: [
          oneOf("/first_frame", "unsupported_frame_mode", "frame mode", mode, (c) => c.frame_modes),
          ...durationRequirements(input.duration),
          ...optionRequirements(input),
          ...(input.driving_audio !== undefined ? [drivingAudioRequirement("/driving_audio")] : []),
        ],
        seconds: (m) => billedSeconds(m, input.duration),
      },
      ctx,
    );
  },
});
