import { z } from "zod";
import { videoModelsFor } from "../../catalog/video-models.js";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { referenceSchema } from "../../contracts/media-input.js";
import { videoMediaInput, videoOptionFields, videoText } from "../../contracts/video-options.js";
import { failure, type FieldFailure } from "../../errors/index.js";
import type { MediaFacts } from "../../media/slots.js";
import { modelField } from "../model-field.js";
import { prepareVideoGeneration, VIDEO_GENERATION_DEADLINE_SECONDS } from "./prepare-generation.js";
import { referenceRequirements } from "./reference-requirements.js";
import { optionRequirements, type VideoRequirement } from "./requirements.js";
import { defineCapability } from "../define.js";

const MIN_EXTEND_SECONDS = 2;

const MODEL_IDS = videoModelsFor("video_extend").map((m) => m.id);

export const videoExtendInputSchema = z
  .object({
    ...commonCreateFields,
    model: modelField("video_extend", MODEL_IDS),
    ...videoOptionFields,
    video: videoMediaInput("Source video."),
    direction: z.enum(["before", "after"]).describe("Add footage before the start or after the end."),
    instruction: videoText.describe("What happens in the new footage (max 20000 chars)."),
    references: z.array(referenceSchema).max(50).optional().describe("Ordered references; the model must take them all."),
    // The final returned duration. That it exceeds the source's own duration can only be checked once the
    // source is decoded, so admission checks the endpoint range and the model's maximum.
    duration: z
      .number()
      .int()
      .min(MIN_EXTEND_SECONDS)
      .max(30)
      .describe("Final length in seconds, source included; must exceed it."),
  })
  .strict();

export type VideoExtendInput = z.infer<typeof videoExtendInputSchema> & CommonCreateInput;

function extendDurationRequirement(duration: number): VideoRequirement {
  return {
    param: "/duration",
    check: (m) => {
      const min = m.constraints.extend_min_duration ?? MIN_EXTEND_SECONDS;
      const max = m.constraints.extend_max_duration ?? 0;
      if (duration >= min && duration <= max) return null;
      const message = duration < min ? `an extension to ${duration} s is shorter than the model's ${min} s` : `an extension to ${duration} s is longer than the model's ${max} s`;
      return { code: "unsupported_duration", message, received: duration, supported: { min, max } };
    },
  };
}

// SPEC.md: the final duration "must exceed the trusted source duration", trusted meaning as decoded by us.
function longerThanSource(input: VideoExtendInput, media: Readonly<Record<string, MediaFacts>>): FieldFailure[] {
  const source = media["/video"]?.durationSeconds;
  if (source === undefined || input.duration > source) return [];
  return [failure(["duration"], `must exceed the source video's duration of ${Number(source.toFixed(3))} s`)];
}

export const videoExtendCapability = defineCapability({
  id: "video_extend",
  path: "/v1/videos/extend",
  area: "videos",
  summary: "Video extend: lengthen a video before or after it, to a final duration of 2 to 30 seconds.",
  tool: {
    name: "svc.videos.extend",
    title: "Extend a video",
    description:
      "Extend video before or after it, following instruction, to the final duration given.",
  },
  inputSchema: videoExtendInputSchema,
  checkResolvedMedia: longerThanSource,
  modelIds: MODEL_IDS,
  example: {
    video: { type: "url", url: "https://example.com/source.mp4" },
    direction: "after",
    instruction: "The car drives on into the tunnel.",
    duration: 10,
  },
  output: { type: "artifact_kind", clips: false },
  billingMode: "prepaid",
  deadlineSeconds: VIDEO_GENERATION_DEADLINE_SECONDS,
  prepare: (input, ctx) =>
    prepareVideoGeneration(
      {
        capability: "video_extend",
        model: input.model,
        resolution: input.resolution,
        requirements: [
          extendDurationRequirement(input.duration),
          ...referenceRequirements(input.references),
          ...optionRequirements(input),
        ],
        seconds: () => input.duration,
      },
      ctx,
    ),
});
