import { z } from "zod";
import { SPEECH_FORMATS, SPEECH_METER, SPEECH_MODELS, type SpeechModel } from "../catalog/speech-models.js";
import { findPrice, priceLine } from "../credits/pricing.js";
import { commonCreateFields, type CommonCreateInput } from "../contracts/common-create.js";
import { bcp47Tag, codePointLength, primarySubtag, textOfLength } from "../contracts/text.js";
import { ServiceError } from "../errors/index.js";
import { selectModel, type Requirement } from "../selection/select.js";
import type { Capability, Quote } from "./types.js";
import { preparedFrom } from "./prepared.js";

const toneEntry = z
  .string()
  .regex(/^[^/]+\/(\([a-z]+[1-5]\))+$/, "must look like 处理/(chu3)(li3): characters, a slash, then pinyin with tone 1-5");

export const speechInputSchema = z
  .object({
    ...commonCreateFields,
    voice: z.string().min(1).max(256),
    input: textOfLength(1, 50_000),
    model: z.string().min(1).default("auto"),
    language: bcp47Tag.optional(),
    format: z.enum(SPEECH_FORMATS).default("mp3"),
    sample_rate: z.number().int().positive().optional(),
    speed: z.number().min(0.5).max(2).default(1),
    volume: z.number().gt(0).max(10).default(1),
    pitch: z.number().min(-1).max(1).default(0),
    emotion: z.string().min(1).max(32).optional(),
    model_options: z
      .object({
        vendorA: z
          .object({ pronunciation_dict: z.object({ tone: z.array(toneEntry).max(1000) }).strict().optional() })
          .strict()
          .optional(),
      })
      .catchall(z.record(z.string(), z.unknown()))
      .optional(),
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

export const speechCapability: Capability<SpeechInput> = {
  id: "text_to_speech",
  path: "/v1/audio/speech",
  area: "speech",
  summary: "Text to speech: synthesize `input` with a preset or cloned voice.",
  tool: {
    name: "svc.speech.synthesize",
    title: "Synthesize speech",
    description:
      "Turn text into spoken audio with a preset or cloned voice. Returns a task; poll svc.tasks.get until it is terminal, then download the audio artifact.",
  },
  inputSchema: speechInputSchema,
  modelIds: SPEECH_MODELS.map((m) => m.id),
  example: { voice: "en_female_aria", input: "Hello from the media service." },
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
      requirements: speechRequirements(input, voice.models),
    });
    return preparedFrom(selection, speechQuote(selection.model, input.input));
  },
};
