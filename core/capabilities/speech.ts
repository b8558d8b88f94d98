import { z } from "zod";
import { SPEECH_FORMATS, SPEECH_INPUT_MAX_CHARACTERS, SPEECH_METER, SPEECH_MODELS, type SpeechModel } from "../catalog/speech-models.js";
import { findPrice, priceLine } from "../credits/pricing.js";
import { commonCreateFields, type CommonCreateInput } from "../contracts/common-create.js";
import { bcp47Tag, codePointLength, primarySubtag, textOfLength } from "../contracts/text.js";
import { ServiceError } from "../errors/index.js";
import { selectModel, type Requirement } from "../selection/select.js";
import { modelField } from "./model-field.js";
import type { Quote } from "./types.js";
import { preparedFrom } from "./prepared.js";
import { defineCapability } from "./define.js";

const toneEntry = z
  .string()
  .regex(/^[^/]+\/(\([a-z]+[1-5]\))+$/, "must look like 处理/(chu3)(li3): characters, a slash, then pinyin with tone 1-5");

const MODEL_IDS = SPEECH_MODELS.map((m) => m.id);

export const speechInputSchema = z
  .object({
    ...commonCreateFields,
    voice: z.string().min(1).max(256).describe("A voice_id, preset or cloned: svc.voices.list (GET /v1/voices) lists them."),
    input: textOfLength(1, SPEECH_INPUT_MAX_CHARACTERS).describe(
      `Text to speak (max ${SPEECH_INPUT_MAX_CHARACTERS} chars); billed per char, Han counts 2.`,
    ),
    model: modelField("text_to_speech", MODEL_IDS),
    language: bcp47Tag
      .optional()
      .describe("BCP-47 tag, e.g. en; omit to let the voice decide; never replaced."),
    format: z.enum(SPEECH_FORMATS).default("mp3").describe("Audio format."),
    sample_rate: z.number().int().positive().optional().describe("Hz, e.g. 24000; one the model offers for the format."),
    speed: z.number().min(0.5).max(2).default(1).describe("Speaking rate; 1 is natural."),
    volume: z.number().gt(0).max(10).default(1).describe("Loudness; 1 keeps the voice's level."),
    pitch: z.number().min(-1).max(1).default(0).describe("0 keeps the voice's pitch; -1 lowest, 1 highest."),
    emotion: z.string().min(1).max(32).optional().describe("Emotion such as happy."),
    model_options: z
      .object({
        vendorA: z
          .object({
            pronunciation_dict: z
              .object({
                tone: z
                  .array(toneEntry)
                  .max(1000)
                  .describe("Entries like 处理/(chu3)(li3); tones 1-4, 5 neutral."),
              })
              .strict()
              .optional()
              .describe("Pronunciation overrides."),
          })
          .strict()
          .optional()
          .describe("For vendorA models; others ignore it."),
      })
      .catchall(z.record(z.string(), z.unknown()))
      .optional()
      .describe("Per-family options, checked by the model."),
  })
  .strict();

export type SpeechInput = z.infer<typeof speechInputSchema> & CommonCreateInput;

// Billing quantity of SPEC.md: each Han ideograph counts 2, every other character 1.
export function weightedCharacters(text: string): number {
  let weight = 0;
  for (const ch of text) weight += /\p{Script=Han}/u.test(ch) ? 2 : 1;
  return weight;
}

export function speechQuote(model: SpeechModel, text: string): Quote {
  const line = priceLine(findPrice(model.prices, SPEECH_METER), BigInt(weightedCharacters(text)));
  return {
    lines: [line],
    totalMicro: line.amountMicro,
    counters: { characters: codePointLength(text) },
  };
}

function speechRequirements(input: SpeechInput, voiceModels: readonly string[]): Requirement<SpeechModel>[] {
  const requirements: Requirement<SpeechModel>[] = [
    {
      param: "/voice",
      check: (m) =>
        voiceModels.includes(m.id)
          ? null
          : {
              code: "voice_model_incompatible",
              message: `voice "${input.voice}" does not resolve on ${m.id}`,
              received: input.voice,
              supported: voiceModels,
            },
    },
    {
      param: "/format",
      check: (m) =>
        m.constraints.formats.includes(input.format)
          ? null
          : { code: "unsupported_format", message: `format ${input.format} is not offered`, received: input.format, supported: m.constraints.formats },
    },
  ];
  if (input.language !== undefined) {
    const language = primarySubtag(input.language);
    requirements.push({
      param: "/language",
      check: (m) =>
        m.constraints.supported_languages.includes(language)
          ? null
          : { code: "unsupported_language", message: `language ${language} is not supported`, received: input.language, supported: m.constraints.supported_languages },
    });
  }
  if (input.sample_rate !== undefined) {
    const rate = input.sample_rate;
    requirements.push({
      param: "/sample_rate",
      check: (m) => {
        const rates = m.constraints.sample_rates[input.format];
        return rates.includes(rate)
          ? null
          : { code: "unsupported_sample_rate", message: `sample rate ${rate} is not offered for ${input.format}`, received: rate, supported: rates };
      },
    });
  }
  if (input.emotion !== undefined) {
    const emotion = input.emotion;
    requirements.push({
      param: "/emotion",
      check: (m) =>
        m.constraints.emotions.includes(emotion)
          ? null
          : { code: "unsupported_emotion", message: `emotion ${emotion} is not offered`, received: emotion, supported: m.constraints.emotions },
    });
  }
  if (input.model_options?.vendorA?.pronunciation_dict !== undefined) {
    requirements.push({
      param: "/model_options/vendorA/pronunciation_dict",
      check: (m) =>
        m.constraints.pronunciation_dict
          ? null
          : { code: "unsupported_pronunciation_dict", message: "pronunciation_dict is not honoured", received: true, supported: false },
    });
  }
  return requirements;
}

export const speechCapability = defineCapability({
  id: "text_to_speech",
  path: "/v1/audio/speech",
  area: "speech",
  summary: "Text to speech: synthesize `input` with a preset or cloned voice.",
  tool: {
    name: "svc.speech.synthesize",
    title: "Synthesize speech",
    description:
      "Turn text into spoken audio with a preset or cloned voice.",
  },
  inputSchema: speechInputSchema,
  modelIds: MODEL_IDS,
  example: { voice: "en_female_aria", input: "Hello from the media service." },
  output: { type: "artifact_kind", clips: false },
  billingMode: "prepaid",
  deadlineSeconds: 600,
  async prepare(input, ctx) {
    const voice = await ctx.findVoice(ctx.tenantId, input.voice);
    if (!voice) {
      throw new ServiceError("voice_not_found", `No voice "${input.voice}" for this account.`, { param: "/voice" });
    }
    const selection = selectModel({
      capability: "text_to_speech",
      requested: input.model,
      candidates: SPEECH_MODELS,
      isLive: (m) => ctx.isFamilyLive(m.family),
      lifecycle: ctx.lifecycle,
      known: ctx.known,
      requirements: speechRequirements(input, voice.models),
    });
    return preparedFrom(selection, speechQuote(selection.model, input.input));
  },
});
