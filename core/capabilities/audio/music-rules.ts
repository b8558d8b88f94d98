import { z } from "zod";
import { MUSIC_MODELS, MUSIC_TRACK_METER, type MusicModel, type MusicTextLimits } from "../../catalog/audio-models.js";
import { findPrice, priceLine } from "../../credits/pricing.js";
import { codePointLength, textOfLength } from "../../contracts/text.js";
import { failure, type FieldFailure } from "../../errors/index.js";
import { selectModel, type Requirement } from "../../selection/select.js";
import type { OutputShape, PrepareContext, Prepared, Quote } from "../types.js";
import { preparedFrom } from "../prepared.js";

// What text-to-music and reference-audio-to-music share: the song controls, the `model_options` groups, the
// cross-field rules and the per-model checks. Types are checked here; bounds that differ by model come from
// the catalog (core/catalog/audio-models.ts), so an explicit control only constrains which model may run it.

// SPEC.md bounds the music prompt (2000) but not vendorG's negative tags, a style list shorter than a prompt: the
// service's own bound.
const NEGATIVE_TAGS_MAX = 1000;

const vendorGMusicOptions = z
  .object({
    custom_mode: z.boolean().optional().describe("prompt becomes the style; lyrics sung as written. Not false with lyrics."),
    negative_tags: textOfLength(1, NEGATIVE_TAGS_MAX).optional().describe("Styles to avoid."),
    vocal_gender: z.string().min(1).max(16).optional().describe("Singer gender, e.g. m or f; not with instrumental."),
    style_weight: z.number().optional().describe("Style adherence, in the model's range."),
    weirdness_constraint: z.number().optional().describe("Creative deviation, in the model's range."),
    audio_weight: z.number().optional().describe("Reference-audio influence, in the model's range."),
  })
  .strict()
  .describe("Only for vendorG models.");

const vendorAMusicOptions = z
  .object({
    lyrics_optimizer: z
      .boolean()
      .optional()
      .describe("Model writes or polishes lyrics; not false for a song without lyrics."),
    aigc_watermark: z.boolean().optional().describe("Embed an AI-content watermark."),
    audio_setting: z
      .object({
        sample_rate: z.number().int().positive().optional().describe("Sample rate in Hz, e.g. 44100."),
        bitrate: z.number().int().positive().optional().describe("Bitrate in bit/s, e.g. 256000."),
        format: z.string().min(1).max(16).optional().describe("Format, e.g. mp3."),
      })
      .strict()
      .optional()
      .describe("Output encoding; values per model catalog."),
  })
  .strict()
  .describe("Only for vendorA models.");

// The largest lyrics any music model takes; each model's own bound is checked in selection.
const MAX_LYRICS_CHARACTERS = 5000;

// SPEC.md: a music task's `type` is its capability and its tracks are `clips[]` (the same artifacts as `artifacts[]`).
export const MUSIC_OUTPUT: OutputShape = { type: "capability_id", clips: true };

export const musicSongFields = {
  lyrics: textOfLength(1, MAX_LYRICS_CHARACTERS)
    .optional()
    .describe("Words to sing (max 5000 chars, less on some models)."),
  instrumental: z.boolean().default(false).describe("No vocals; then omit lyrics."),
  title: textOfLength(1, 200).optional().describe("Track title (max 200 chars, less on some models)."),
  model_options: z
    .object({ vendorG: vendorGMusicOptions.optional(), vendorA: vendorAMusicOptions.optional() })
    .strict()
    .optional()
    .describe("Options per model family; a group limits models to its family."),
};

export interface MusicSongInput {
  prompt: string;
  lyrics?: string | undefined;
  instrumental: boolean;
  title?: string | undefined;
  model_options?: z.infer<typeof musicSongFields.model_options>;
}

// Instrumental music has no vocals, so words to sing or a singer's gender contradict it. vendorG sings given
// lyrics only in custom mode (SPEC.md), and vendorA writes the lyrics of a song given none only with its lyrics
// optimizer: turning either off where it is needed would otherwise be silently overruled. (An instrumental
// never reaches vendorA, which has no instrumental mode.)
export function musicCrossFieldRules(input: MusicSongInput): FieldFailure[] {
  const failures: FieldFailure[] = [];
  if (input.instrumental && input.lyrics !== undefined) failures.push(failure(["lyrics"], "must be omitted when instrumental is true"));
  if (input.instrumental && input.model_options?.vendorG?.vocal_gender !== undefined) {
    failures.push(failure(["model_options", "vendorG", "vocal_gender"], "must be omitted when instrumental is true"));
  }
  if (input.lyrics !== undefined && input.model_options?.vendorG?.custom_mode === false) {
    failures.push(failure(["model_options", "vendorG", "custom_mode"], "cannot be false with lyrics: lyrics are sung in custom mode"));
  }
  if (!input.instrumental && input.lyrics === undefined && input.model_options?.vendorA?.lyrics_optimizer === false) {
    failures.push(failure(["model_options", "vendorA", "lyrics_optimizer"], "cannot be false without lyrics: the model then writes them"));
  }
  return failures;
}

type Check = Requirement<MusicModel>["check"];

function maxLength(param: string, code: string, text: string, max: (m: MusicModel) => number): Requirement<MusicModel> {
  const length = codePointLength(text);
  return {
    param,
    check: (m) =>
      length <= max(m)
        ? null
        : { code, message: `${param.slice(1)} has ${length} characters, more than ${max(m)}`, received: length, supported: { max: max(m) } },
  };
}

// A check of one field inside a `model_options` group: a model without the group passes it here because the
// group requirement already reports that model.
function optionCheck<L>(group: (m: MusicModel) => L | undefined, check: (limits: L) => ReturnType<Check>): Check {
  return (m) => {
    const limits = group(m);
    return limits === undefined ? null : check(limits);
  };
}

function oneOf<T>(code: string, name: string, value: T, supported: readonly T[]) {
  return supported.includes(value) ? null : { code, message: `${name} ${String(value)} is not offered`, received: value, supported };
}

function within(code: string, name: string, value: number, range: { min: number; max: number }) {
  return value >= range.min && value <= range.max
    ? null
    : { code, message: `${name} must be within ${range.min} and ${range.max}`, received: value, supported: range };
}

function optionRequirements(input: MusicSongInput): Requirement<MusicModel>[] {
  const requirements: Requirement<MusicModel>[] = [];
  const options = input.model_options ?? {};
  for (const family of ["vendorA", "vendorG"] as const) {
    if (options[family] === undefined) continue;
    requirements.push({
      param: `/model_options/${family}`,
      check: (m) =>
        m.constraints.model_options[family] !== undefined
          ? null
          : {
              code: "unsupported_model_options",
              message: `model_options.${family} is for ${family} models; ${m.id} takes ${Object.keys(m.constraints.model_options).join(", ")}`,
              received: family,
              supported: Object.keys(m.constraints.model_options),
            },
    });
  }

  const vendorG = options.vendorG ?? {};
  const gLimits = (m: MusicModel) => m.constraints.model_options.vendorG;
  if (vendorG.negative_tags !== undefined) {
    const length = codePointLength(vendorG.negative_tags);
    requirements.push({
      param: "/model_options/vendorG/negative_tags",
      check: optionCheck(gLimits, (l) =>
        length <= l.max_negative_tags_characters
          ? null
          : {
              code: "unsupported_negative_tags",
              message: `negative_tags has ${length} characters, more than ${l.max_negative_tags_characters}`,
              received: length,
              supported: { max: l.max_negative_tags_characters },
            },
      ),
    });
  }
  const gender = vendorG.vocal_gender;
  if (gender !== undefined) {
    requirements.push({
      param: "/model_options/vendorG/vocal_gender",
      check: optionCheck(gLimits, (l) => oneOf("unsupported_vocal_gender", "vocal_gender", gender, l.vocal_genders)),
    });
  }
  for (const name of ["style_weight", "weirdness_constraint", "audio_weight"] as const) {
    const value = vendorG[name];
    if (value === undefined) continue;
    requirements.push({
      param: `/model_options/vendorG/${name}`,
      check: optionCheck(gLimits, (l) => within(`unsupported_${name}`, name, value, l[name])),
    });
  }

  const setting = options.vendorA?.audio_setting ?? {};
  const aSetting = (m: MusicModel) => m.constraints.model_options.vendorA?.audio_setting;
  const { sample_rate: sampleRate, bitrate, format } = setting;
  if (sampleRate !== undefined) {
    requirements.push({
      param: "/model_options/vendorA/audio_setting/sample_rate",
      check: optionCheck(aSetting, (l) => oneOf("unsupported_sample_rate", "sample_rate", sampleRate, l.sample_rates)),
    });
  }
  if (bitrate !== undefined) {
    requirements.push({
      param: "/model_options/vendorA/audio_setting/bitrate",
      check: optionCheck(aSetting, (l) => oneOf("unsupported_bitrate", "bitrate", bitrate, l.bitrates)),
    });
  }
  if (format !== undefined) {
    requirements.push({
      param: "/model_options/vendorA/audio_setting/format",
      check: optionCheck(aSetting, (l) => oneOf("unsupported_format", "format", format, l.formats)),
    });
  }
  return requirements;
}

// Every control the request set, as a question to each music model; omitted controls constrain nothing.
export function musicRequirements(input: MusicSongInput, limits: (m: MusicModel) => MusicTextLimits): Requirement<MusicModel>[] {
  const requirements = [maxLength("/prompt", "unsupported_prompt_length", input.prompt, (m) => limits(m).max_prompt_characters)];
  if (input.lyrics !== undefined) {
    requirements.push(maxLength("/lyrics", "unsupported_lyrics_length", input.lyrics, (m) => limits(m).max_lyrics_characters));
  }
  if (input.title !== undefined) {
    requirements.push(maxLength("/title", "unsupported_title_length", input.title, (m) => m.constraints.max_title_characters));
  }
  if (input.instrumental) {
    requirements.push({
      param: "/instrumental",
      check: (m) =>
        m.constraints.instrumental
          ? null
          : {
              code: "unsupported_instrumental",
              message: `${m.id} always sings; it has no instrumental mode`,
              received: true,
              supported: false,
            },
    });
  }
  return [...requirements, ...optionRequirements(input)];
}

export type MusicPriceMode = "text" | "reference_audio";

// Music is prepaid per successful task: one track at the model's price for the endpoint's mode.
export function musicQuote(model: MusicModel, mode: MusicPriceMode): Quote {
  const price = findPrice(model.prices, MUSIC_TRACK_METER, mode === "reference_audio" ? { mode } : {});
  const line = priceLine(price, 1n);
  return { lines: [line], totalMicro: line.amountMicro, counters: {} };
}

export interface MusicEndpoint {
  capability: "text_to_music" | "reference_audio_to_music";
  priceMode: MusicPriceMode;
  limits(model: MusicModel): MusicTextLimits;
}

export function prepareMusic(input: MusicSongInput & { model: string }, ctx: PrepareContext, endpoint: MusicEndpoint): Prepared {
  const selection = selectModel({
    capability: endpoint.capability,
    requested: input.model,
    candidates: MUSIC_MODELS.filter((m) => m.capabilities.includes(endpoint.capability)),
    isLive: (m) => ctx.isFamilyLive(m.family),
    lifecycle: ctx.lifecycle,
    requirements: musicRequirements(input, endpoint.limits),
    known: ctx.known,
  });
  return preparedFrom(selection, musicQuote(selection.model, endpoint.priceMode));
}
