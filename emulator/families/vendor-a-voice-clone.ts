import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { VOICE_CLONE_MODELS } from "../../core/catalog/audio-models.js";
import { AUDIO_CONTENT_TYPES } from "../audio-encoding.js";
import { durationSecondsOf, fundamentalHz } from "../media/audio-analysis.js";
import { fetchAcceptedRecording, RecordingError } from "../media/recording-input.js";
import { timbreForFundamental, type Timbre } from "../media/voice-timbre.js";
import { synthesizeSpeechToFile } from "../speech-synthesis.js";
import type { EmulatorContext } from "../vendor-family.js";
import type { ClonedVoices } from "./vendor-a-cloned-voices.js";
import { BASE, fileUrl, FINISHED, invalidParams, receiveCall, traceId } from "./vendor-a-calls.js";

// vendorA voice clone (docs/providers/vendorA.md, "Voice clone"): synchronous. The caller names the new voice_id
// and hands over the sample by URL; the vendor listens to it (its pitch decides the voice's timbre), registers
// the voice, and activates it by speaking `text` with it. The answer carries the voice_id and that
// demonstration. Speech with the voice_id then speaks in the cloned voice.

const MODEL = VOICE_CLONE_MODELS[0]!;
const LIMITS = MODEL.constraints;
const DEMO_SAMPLE_RATE = 32000;

const WORDING = {
  internalError: "voice clone engine unavailable",
  inputFlagged: "voice sample flagged by safety review",
  outputBlocked: "activation audio blocked",
};

const cloneRequestSchema = z
  .object({
    voice_id: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{7,255}$/, "voice_id must be 8 to 256 letters, digits, - or _, starting with a letter"),
    model: z.literal(MODEL.id),
    audio_url: z.url(),
    // The speech model the activation is spoken with.
    preview_model: z.enum(LIMITS.voice_models as [string, ...string[]]),
    text: z.string().trim().min(1).max(300),
    language_boost: z.string().nullish(),
    need_noise_reduction: z.boolean().optional(),
    need_volume_normalization: z.boolean().optional(),
  })
  .strict();

export function registerVendorAVoiceCloneRoutes(app: FastifyInstance, context: EmulatorContext, voices: ClonedVoices): void {
  app.post("/v1/voice_clone", (request, reply) => cloneVoice(request, reply, context, voices));
}

async function cloneVoice(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext, voices: ClonedVoices) {
  const received = await receiveCall(request, reply, context, cloneRequestSchema, WORDING);
  if (received === null) return reply;
  const clone = received.body;
  const heard = await listenToSample(clone.audio_url).catch((error: unknown) => {
    if (error instanceof RecordingError) return error;
    throw error;
  });
  if (heard instanceof RecordingError) return reply.send({ base_resp: invalidParams(`audio_url: ${heard.message}`) });
  voices.register(clone.voice_id, heard.timbre);
  const { file } = await context.files.save(
    (path) =>
      synthesizeSpeechToFile(
        { text: clone.text, language: clone.language_boost ?? null, speed: 1, pitch: 0, volume: 1, format: "mp3", sampleRate: DEMO_SAMPLE_RATE, timbre: heard.timbre },
        path,
      ),
    { contentType: AUDIO_CONTENT_TYPES.mp3, failsDownload: received.failsDownload },
  );
  return reply.send({
    data: { voice_id: clone.voice_id, demo_audio_url: fileUrl(request, file.fileId), status: FINISHED },
    extra_info: { sample_seconds: Math.round(heard.seconds * 10) / 10, sample_pitch_hz: Math.round(heard.pitchHz), demo_audio_format: "mp3" },
    base_resp: BASE.success,
    trace_id: traceId(),
  });
}

interface HeardSample {
  timbre: Timbre;
  seconds: number;
  pitchHz: number;
}

async function listenToSample(url: string): Promise<HeardSample> {
  const sample = await fetchAcceptedRecording(url, {
    formats: LIMITS.sample_formats,
    minSeconds: LIMITS.min_sample_seconds,
    maxSeconds: LIMITS.max_sample_seconds,
  });
  const pitchHz = fundamentalHz(sample.pcm);
  if (pitchHz === null) throw new RecordingError("no voice could be heard in the sample");
  return { timbre: timbreForFundamental(pitchHz), seconds: durationSecondsOf(sample.pcm), pitchHz };
}
