import { z } from "zod";
import { commonCreateFields, type CommonCreateInput } from "../../contracts/common-create.js";
import { mediaInput } from "../../contracts/media-input.js";
import { textOfLength } from "../../contracts/text.js";
import { ServiceError } from "../../errors/index.js";
import { MUSIC_OUTPUT, musicCrossFieldRules, musicSongFields, prepareMusic } from "./music-rules.js";
import { defineCapability } from "../define.js";

export const referenceAudioToMusicInputSchema = z
  .object({
    ...commonCreateFields,
    model: z
      .string()
      .min(1)
      .default("auto")
      .describe("Only auto (default): picks a live model that takes reference audio."),
    reference_audio: mediaInput({
      kind: "audio",
      description: "Recording to follow (melody, structure, feel); limits per model.",
    }),
    // The largest prompt any model takes here; each model's bound is in its reference_audio_to_music constraints.
    prompt: textOfLength(1, 2000).describe("Style, mood, genre, instruments (max 2000 chars, less on some)."),
    ...musicSongFields,
  })
  .strict();

export type ReferenceAudioToMusicInput = z.infer<typeof referenceAudioToMusicInputSchema> & CommonCreateInput;

export const referenceAudioToMusicCapability = defineCapability({
  id: "reference_audio_to_music",
  path: "/v1/music/reference-audio-to-music",
  area: "music",
  summary: "Reference audio to music: a new track that follows a reference recording, steered by a prompt and lyrics.",
  tool: {
    name: "svc.music.generate_from_reference",
    title: "Generate music from reference audio",
    description:
      "Compose a new track that follows a reference recording (melody, structure, feel), steered by a style prompt and optional lyrics.",
  },
  inputSchema: referenceAudioToMusicInputSchema,
  crossFieldRules: musicCrossFieldRules,
  // SPEC.md offers only `auto` here: the service picks among the music models that take reference audio.
  modelIds: [],
  example: {
    reference_audio: { type: "url", url: "https://example.com/reference.mp3" },
    prompt: "Acoustic folk arrangement with fingerpicked guitar",
  },
  output: MUSIC_OUTPUT,
  billingMode: "prepaid",
  deadlineSeconds: 1200,
  async prepare(input, ctx) {
    if (input.model !== "auto") {
      throw new ServiceError("unsupported_model", `Model "${input.model}" is not selectable for reference_audio_to_music; use auto.`, {
        param: "/model",
        details: { received: input.model, supported_models: ["auto"] },
      });
    }
    return prepareMusic(input, ctx, {
      capability: "reference_audio_to_music",
      priceMode: "reference_audio",
      limits: (m) => m.constraints.reference_audio_to_music,
    });
  },
});
