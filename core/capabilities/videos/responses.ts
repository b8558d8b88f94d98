import { z } from "zod";
import { UNDERSTANDING_MODELS, type UnderstandingModel } from "../../catalog/understanding-models.js";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { textOfLength } from "../../contracts/text.js";
import { videoMediaInput } from "../../contracts/video-options.js";
import { findPrice, priceLine } from "../../credits/pricing.js";
import { selectModel } from "../../selection/select.js";
import { understandingOptionFields, understandingRequirements } from "../understanding-requirements.js";
import { requiredModelField } from "../model-field.js";
import type { Quote } from "../types.js";
import { preparedFrom } from "../prepared.js";
import { defineCapability } from "../define.js";

const CAPABILITY_ID = "video_to_text";
// The meter a video understanding task is priced by: the seconds of video read, re-priced on success.
const VIDEO_INPUT_METER = "video_input_seconds";

const videoUnderstandingModels = UNDERSTANDING_MODELS.filter((m) => m.capabilities.includes(CAPABILITY_ID));
const MODEL_IDS = videoUnderstandingModels.map((m) => m.id);

export const videoResponsesInputSchema = z
  .object({
    ...commonCreateFields,
    model: requiredModelField(CAPABILITY_ID, MODEL_IDS),
    prompt: textOfLength(1, 32_000).describe("Question or instruction about the video (max 32000 chars)."),
    video: videoMediaInput("Video to read; sampled at 1 fps (0.5 from 120 s, 0.2 from 240 s)."),
    ...understandingOptionFields,
  })
  .strict();

export type VideoResponsesInput = z.infer<typeof videoResponsesInputSchema> & CommonCreateInput;

// The video's duration is known only once it is decoded, so the hold covers the longest video the model takes;
// success captures the rounded-up seconds actually read.
export function videoUnderstandingQuote(model: UnderstandingModel): Quote {
  const seconds = model.constraints.max_video_seconds;
  const line = priceLine(findPrice(model.prices, VIDEO_INPUT_METER), BigInt(seconds));
  return { lines: [line], totalMicro: line.amountMicro, counters: { input_video_seconds: seconds, video_seconds: seconds } };
}

export const videoResponsesCapability = defineCapability({
  id: CAPABILITY_ID,
  path: "/v1/videos/responses",
  area: "videos",
  summary: "Video understanding: answer a prompt about one video (frames sampled at 1, 0.5 or 0.2 fps by length).",
  tool: {
    name: "svc.videos.analyze",
    title: "Ask about a video",
    description:
      "Answer a question or follow an instruction about one video; billed after success by input-video seconds.",
  },
  inputSchema: videoResponsesInputSchema,
  modelIds: MODEL_IDS,
  example: { model: "auto", prompt: "Summarize what happens in this video.", video: { type: "url", url: "https://example.com/clip.mp4" } },
  output: { type: "artifact_kind", clips: false },
  billingMode: "postpaid",
  postpaidMeters: { [VIDEO_INPUT_METER]: "input_video_seconds" },
  deadlineSeconds: 900,
  async prepare(input, ctx) {
    const selection = selectModel({
      capability: CAPABILITY_ID,
      requested: input.model,
      candidates: videoUnderstandingModels,
      isLive: (m) => ctx.isFamilyLive(m.family),
      lifecycle: ctx.lifecycle,
      known: ctx.known,
      requirements: understandingRequirements({
        modality: "video",
        mediaParam: "/video",
        prompt: input.prompt,
        detail: input.detail,
        response_format: input.response_format,
        temperature: input.temperature,
      }),
    });
    return preparedFrom(selection, videoUnderstandingQuote(selection.model));
  },
});
