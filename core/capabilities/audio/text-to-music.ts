import { z } from "zod";
import { MUSIC_MODELS } from "../../catalog/audio-models.js";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { textOfLength } from "../../contracts/text.js";
import { requiredModelField } from "../model-field.js";
import { MUSIC_OUTPUT, musicCrossFieldRules, musicSongFields, prepareMusic } from "./music-rules.js";
import { defineCapability } from "../define.js";

const MODEL_IDS = MUSIC_MODELS.filter((m) => m.capabilities.includes("text_to_music")).map((m) => m.id);

export const textToMusicInputSchema = z
  .object({
    ...commonCreateFields,
    // Required by SPEC.md (no default): the caller says `auto` to let the service choose.
    model: requiredModelField("text_to_music", MODEL_IDS),
    prompt: textOfLength(1, 2000).describe(
      "Style, mood, genre, instruments (max 2000 chars); not instructions. Sung words go in lyrics.",
    ),
    ...musicSongFields,
  })
  .strict();

export type TextToMusicInput = z.infer<typeof textToMusicInputSchema> & CommonCreateInput;

export const textToMusicCapability = defineCapability({
  id: "text_to_music",
  path: "/v1/music/text-to-music",
  area: "music",
  summary: "Text to music: a song (or an instrumental) from a style prompt and optional lyrics.",
  tool: {
    name: "svc.music.generate",
    title: "Generate music",
    description:
      "Compose music from a style prompt (genre, mood, instrumentation) and optional lyrics, or an instrumental.",
  },
  inputSchema: textToMusicInputSchema,
  crossFieldRules: musicCrossFieldRules,
  modelIds: MODEL_IDS,
  example: { model: "auto", prompt: "Upbeat synth-pop with a driving bassline and bright pads" },
  output: MUSIC_OUTPUT,
  billingMode: "prepaid",
  deadlineSeconds: 1200,
  async prepare(input, ctx) {
    return prepareMusic(input, ctx, { capability: "text_to_music", priceMode: "text", limits: (m) => m.constraints.text_to_music });
  },
});
