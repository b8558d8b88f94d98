import { readFile } from "node:fs/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { AUDIO_CONTENT_TYPES } from "../audio-encoding.js";
import { traitsOf, type RecordingTraits } from "../media/audio-analysis.js";
import { composeSong, recordTakeToFile } from "../media/music-render.js";
import { fetchAcceptedRecording, RecordingError } from "../media/recording-input.js";
import { writeLyrics, writeTitle } from "../media/song-words.js";
import { MALE_TIMBRE } from "../media/voice-timbre.js";
import type { EmulatorContext } from "../vendor-family.js";
import { BASE, fileUrl, FINISHED, invalidParams, receiveCall, traceId } from "./vendor-a-calls.js";
import { MUSIC_LIMITS, MUSIC_MODEL } from "./vendor-a-models.js";

// vendorA music (docs/providers/vendorA.md, "Music"): synchronous like vendorA speech. One POST makes one song
// and answers with its audio in data.audio (a download URL when output_format is url). With `refer_audio_url` the song follows the reference recording: its tempo,
// key, length and loudness. The model always sings: the lyrics given, or lyrics it writes from the prompt when
// `lyrics_optimizer` is on. Limits are the vendor's (vendor-a-models.ts).

const SETTING = MUSIC_LIMITS;

const WORDING = {
  internalError: "music engine unavailable",
  inputFlagged: "prompt or lyrics flagged by safety review",
  outputBlocked: "generated music blocked",
};

const musicRequestSchema = z
  .object({
    model: z.literal(MUSIC_MODEL),
    prompt: z.string().trim().min(1).max(MUSIC_LIMITS.maxPromptCharacters),
    lyrics: z.string().trim().min(1).max(MUSIC_LIMITS.maxLyricsCharacters).optional(),
    lyrics_optimizer: z.boolean().default(false),
    refer_audio_url: z.url().optional(),
    audio_setting: z
      .object({
        sample_rate: z.number().refine((rate) => (SETTING.sampleRates as readonly number[]).includes(rate), `sample_rate must be one of ${SETTING.sampleRates.join(", ")}`),
        bitrate: z.number().refine((rate) => (SETTING.bitrates as readonly number[]).includes(rate), `bitrate must be one of ${SETTING.bitrates.join(", ")}`),
        format: z.enum(["mp3", "wav", "pcm"]),
      })
      .strict(),
    aigc_watermark: z.boolean().default(false),
    // As for speech: the audio comes back in data.audio, hex unless the request asks for a URL.
    output_format: z.enum(["url", "hex"]).optional(),
  })
  .strict();
type MusicRequest = z.infer<typeof musicRequestSchema>;

export function registerVendorAMusicRoutes(app: FastifyInstance, context: EmulatorContext): void {
  app.post("/v1/music_generation", (request, reply) => generateMusic(request, reply, context));
}

async function generateMusic(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext) {
  const received = await receiveCall(request, reply, context, musicRequestSchema, WORDING);
  if (received === null) return reply;
  const music = received.body;
  if (music.lyrics === undefined && !music.lyrics_optimizer) {
    return reply.send({ base_resp: invalidParams("lyrics is required unless lyrics_optimizer is true") });
  }
  let reference: RecordingTraits | null = null;
  if (music.refer_audio_url !== undefined) {
    const problem = referenceProblem(music);
    if (problem !== null) return reply.send({ base_resp: invalidParams(problem) });
    try {
      reference = await referenceTraits(music.refer_audio_url);
    } catch (error) {
      if (!(error instanceof RecordingError)) throw error;
      return reply.send({ base_resp: invalidParams(`refer_audio_url: ${error.message}`) });
    }
  }
  const lyrics = music.lyrics ?? writeLyrics(music.prompt);
  const title = writeTitle(music.prompt);
  const { format, sample_rate: sampleRate, bitrate } = music.audio_setting;
  const song = await composeSong({ style: music.prompt, lyrics, singer: MALE_TIMBRE, reference });
  const { file } = await context.files.save(
    (path) => recordTakeToFile(song, 0, { format, sampleRate, bitrate, watermark: music.aigc_watermark }, path),
    { contentType: AUDIO_CONTENT_TYPES[format], failsDownload: received.failsDownload },
  );
  return reply.send({
    data: {
      audio: music.output_format === "url" ? fileUrl(request, file.fileId) : (await readFile(file.path)).toString("hex"),
      status: FINISHED,
      title,
      lyrics,
    },
    extra_info: {
      music_duration: Math.round(song.durationSeconds * 1000),
      music_sample_rate: sampleRate,
      music_channel: 1,
      bitrate,
      music_size: file.sizeBytes,
      bpm: song.bpm,
    },
    base_resp: BASE.success,
    trace_id: traceId(),
  });
}

// The reference mode's own prompt limit; the recording's limits are checked once it is downloaded.
function referenceProblem(music: MusicRequest): string | null {
  const max = MUSIC_LIMITS.reference.maxPromptCharacters;
  return [...music.prompt].length > max ? `prompt: at most ${max} characters with refer_audio_url` : null;
}

async function referenceTraits(url: string): Promise<RecordingTraits> {
  const limits = MUSIC_LIMITS.reference;
  const recording = await fetchAcceptedRecording(url, { formats: limits.formats, minSeconds: limits.minSeconds, maxSeconds: limits.maxSeconds });
  return traitsOf(recording.pcm);
}
