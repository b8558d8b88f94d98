import { z } from "zod";
import { ENHANCEMENT_MODELS, type EnhancementModel } from "../../catalog/understanding-models.js";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { mediaInput, referenceSchema } from "../../contracts/media-input.js";
import { codePointLength, textOfLength } from "../../contracts/text.js";
import { failure, type FieldFailure } from "../../errors/index.js";
import { findPrice, priceLine } from "../../credits/pricing.js";
import { selectModel } from "../../selection/select.js";
import type { Quote } from "../types.js";
import { preparedFrom } from "../prepared.js";
import { defineCapability } from "../define.js";

// The request's `model` is ignored: enhancement always runs on the one enhancement model of the catalog.
const enhancer = ENHANCEMENT_MODELS[0] as EnhancementModel;

export const ENHANCEMENT_ASPECT_RATIOS = ["adaptive", "21:9", "16:9", "4:3", "1:1", "3:4", "9:16"] as const;

export const promptEnhanceInputSchema = z
  .object({
    ...commonCreateFields,
    // A compatibility field: any value of any type is accepted and ignored (SPEC.md "Versioning").
    model: z.unknown().optional().describe("Ignored; accepted for compatibility."),
    prompt: textOfLength(1, 7_000).describe("Video idea to expand (max 7000 chars)."),
    duration: z.number().int().min(4).max(15).describe("Seconds of the planned video."),
    aspect_ratio: z
      .enum(ENHANCEMENT_ASPECT_RATIOS)
      .describe("Planned ratio; adaptive needs frames or references."),
    first_frame: mediaInput({ kind: "image", description: "Strict first frame as context; not with references." }).optional(),
    last_frame: mediaInput({ kind: "image", description: "Strict last frame as context; not with references." }).optional(),
    references: z
      .array(referenceSchema)
      .max(50)
      .optional()
      .describe("References as context; not with frames."),
  })
  .strict();

export type PromptEnhanceInput = z.infer<typeof promptEnhanceInputSchema> & CommonCreateInput;

function enhancementRules(input: PromptEnhanceInput): FieldFailure[] {
  const failures: FieldFailure[] = [];
  const hasFrames = input.first_frame !== undefined || input.last_frame !== undefined;
  const hasReferences = (input.references?.length ?? 0) > 0;
  if (input.aspect_ratio === "adaptive" && !hasFrames && !hasReferences) {
    failures.push(failure(["aspect_ratio"], "adaptive needs a first_frame, last_frame or references to adapt to; a text-only request must name a ratio"));
  }
  if (hasFrames && hasReferences) {
    failures.push(failure(["references"], "references and strict frames (first_frame, last_frame) are mutually exclusive"));
  }
  return failures;
}

// Held up front from an upper bound: input tokens estimated at 4 characters each (rounded up) plus the model's
// whole output budget. Success captures only what was measured.
export function enhancementQuote(model: EnhancementModel, prompt: string): Quote {
  const inputTokens = Math.ceil(codePointLength(prompt) / 4);
  const outputTokens = model.constraints.max_output_tokens;
  const lines = [
    priceLine(findPrice(model.prices, "input_tokens"), BigInt(inputTokens)),
    priceLine(findPrice(model.prices, "output_tokens"), BigInt(outputTokens)),
  ];
  return {
    lines,
    totalMicro: lines.reduce((sum, l) => sum + l.amountMicro, 0n),
    counters: { input_tokens: inputTokens, output_tokens: outputTokens },
  };
}

export const promptEnhanceCapability = defineCapability({
  id: "video_prompt_enhancement",
  path: "/v1/videos/prompts/enhance",
  area: "videos",
  summary: "Video prompt enhancement: rewrite a short idea into a detailed video prompt; no video is generated.",
  tool: {
    name: "svc.videos.enhance_prompt",
    title: "Enhance a video prompt",
    description:
      "Rewrite a video idea into a detailed, shot-aware prompt for a given duration and aspect ratio, optionally with strict frames or references as context; no video is made.",
  },
  inputSchema: promptEnhanceInputSchema,
  modelIds: [],
  ignoresModel: true,
  example: { prompt: "A fox in the snow.", duration: 5, aspect_ratio: "16:9" },
  output: { type: "artifact_kind", clips: false },
  billingMode: "postpaid",
  postpaidMeters: { input_tokens: "input_tokens", output_tokens: "output_tokens" },
  deadlineSeconds: 300,
  crossFieldRules: enhancementRules,
  async prepare(input, ctx) {
    const selection = selectModel({
      capability: "video_prompt_enhancement",
      requested: enhancer.id,
      candidates: ENHANCEMENT_MODELS,
      isLive: (m) => ctx.isFamilyLive(m.family),
      lifecycle: ctx.lifecycle,
      known: ctx.known,
      requirements: [],
    });
    // The request's `model` is a compatibility field: the task shows `auto` asked, the enhancer used.
    return {
      ...preparedFrom(
        selection,
        enhancementQuote(selection.model, input.prompt),
        `fixed: prompt enhancement always runs on ${selection.model.id}; the request's model field is ignored`,
      ),
      requestedModel: "auto",
    };
  },
});
