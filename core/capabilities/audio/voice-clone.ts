import { z } from "zod";
import { VOICE_CLONE_METER, VOICE_CLONE_MODELS, type VoiceCloneModel } from "../../catalog/audio-models.js";
import { findPrice, priceLine } from "../../credits/pricing.js";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { mediaInput } from "../../contracts/media-input.js";
import { bcp47Tag, primarySubtag, textOfLength } from "../../contracts/text.js";
import { selectModel, type Requirement } from "../../selection/select.js";
import { modelField } from "../model-field.js";
import type { Quote } from "../types.js";
import { preparedFrom } from "../prepared.js";
import { defineCapability } from "../define.js";
import { insertPendingVoices, settleClonedVoice } from "./voice-clone-lifecycle.js";

const MODEL_IDS = VOICE_CLONE_MODELS.map((m) => m.id);

export const voiceCloneInputSchema = z
  .object({
    ...commonCreateFields,
    sample: mediaInput({ kind: "audio", description: "Clean single-speaker recording, about 10 s to 5 min." }),
    display_name: textOfLength(1, 255).describe("Name of the new voice (max 255 chars)."),
    model: modelField("voice_clone", MODEL_IDS),
    language: bcp47Tag.optional().describe("BCP-47 hint of the sample's language, e.g. en."),
    // Recorded, not verified; anything but an explicit true is refused.
    consent_attested: z
      .literal(true, { error: "must be true: attest that you have the rights to clone this voice" })
      .describe("Must be true: you hold the rights to this voice (recorded, not verified)."),
    // Opaque per-family passthrough: the group must belong to the selected model's family.
    model_options: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .optional()
      .describe("Per-family passthrough, e.g. {vendorA: {}}; must match the model."),
  })
  .strict();

export type VoiceCloneInput = z.infer<typeof voiceCloneInputSchema> & CommonCreateInput;

function voiceCloneRequirements(input: VoiceCloneInput): Requirement<VoiceCloneModel>[] {
  const requirements: Requirement<VoiceCloneModel>[] = [];
  if (input.language !== undefined) {
    const tag = input.language;
    const language = primarySubtag(tag);
    requirements.push({
      param: "/language",
      check: (m) =>
        m.constraints.supported_languages.includes(language)
          ? null
          : {
              code: "unsupported_language",
              message: `language ${language} is not supported`,
              received: tag,
              supported: m.constraints.supported_languages,
            },
    });
  }
  for (const family of Object.keys(input.model_options ?? {})) {
    requirements.push({
      param: `/model_options/${family}`,
      check: (m) =>
        m.constraints.model_option_families.includes(family)
          ? null
          : {
              code: "unsupported_model_options",
              message: `model_options.${family} is not taken by ${m.id}`,
              received: family,
              supported: m.constraints.model_option_families,
            },
    });
  }
  return requirements;
}

// One fixed charge per successfully created voice; the activation synthesis is included.
function voiceCloneQuote(model: VoiceCloneModel): Quote {
  const line = priceLine(findPrice(model.prices, VOICE_CLONE_METER), 1n);
  return { lines: [line], totalMicro: line.amountMicro, counters: {} };
}

export const voiceCloneCapability = defineCapability({
  id: "voice_clone",
  path: "/v1/voices",
  area: "voices",
  summary: "Voice clone: a new voice from a clean single-speaker sample, usable as `voice` in speech synthesis.",
  tool: {
    name: "svc.voices.clone",
    title: "Clone a voice",
    description:
      "Create a reusable voice from a clean single-speaker sample (about 10 seconds to 5 minutes). Requires consent_attested: true. The finished task's output.voice_id works as `voice` in svc.speech.synthesize.",
  },
  inputSchema: voiceCloneInputSchema,
  modelIds: MODEL_IDS,
  example: {
    sample: { type: "url", url: "https://example.com/sample.wav" },
    display_name: "Narrator",
    consent_attested: true,
  },
  // SPEC.md types a voice clone's output by its capability, though it carries the activation's audio as a preview.
  output: { type: "capability_id", clips: false },
  billingMode: "prepaid",
  deadlineSeconds: 600,
  async prepare(input, ctx) {
    const selection = selectModel({
      capability: "voice_clone",
      requested: input.model,
      candidates: VOICE_CLONE_MODELS,
      isLive: (m) => ctx.isFamilyLive(m.family),
      lifecycle: ctx.lifecycle,
      known: ctx.known,
      requirements: voiceCloneRequirements(input),
    });
    return preparedFrom(selection, voiceCloneQuote(selection.model));
  },
  // The voice a clone makes is listed from admission, pending, and settled by the task's end.
  lifecycle: { admitted: insertPendingVoices, finished: settleClonedVoice },
});
