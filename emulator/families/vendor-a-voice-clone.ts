import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { AUDIO_CONTENT_TYPES } from "../audio-encoding.js";
import { fundamentalHz } from "../media/audio-analysis.js";
import { fetchAcceptedRecording, RecordingError } from "../media/recording-input.js";
import { timbreForFundamental, type Timbre } from "../media/voice-timbre.js";
import { synthesizeSpeechToFile } from "../speech-synthesis.js";
import { LANGUAGE_BOOST_VALUES, subtagOfLanguageBoost } from "./vendor-a-languages.js";
import type { EmulatorContext } from "../vendor-family.js";
import type { ClonedVoices } from "./vendor-a-cloned-voices.js";
import { BASE, fileUrl, invalidParams, receiveCall, traceId } from "./vendor-a-calls.js";
import { registerVendorAUploadRoutes, UploadedFiles } from "./vendor-a-uploads.js";
import { CLONE_CONTROL_NAME, CLONE_SAMPLE_LIMITS, SPEECH_MODELS } from "./vendor-a-models.js";

// vendorA voice clone (docs/providers/vendorA.md, "Voice clone"), as the vendor publishes it: the sample is
// uploaded first (`/v1/files/upload`, vendor-a-uploads.ts), then `POST /v1/voice_clone` names it by `file_id`
// with the new voice_id, and the speech model (`model`, the vendor's id) and `text` of a demonstration. The
// vendor listens to the sample (its pitch decides the voice's timbre), registers the voice and answers the
// demonstration as `demo_audio`. Speech with the voice_id then speaks in the cloned voice. Faults and the request
// log name the call by the clone model's neutral id.

const DEMO_SAMPLE_RATE = 32000;

const WORDING = {
  internalError: "voice clone engine unavailable",
  inputFlagged: "voice sample flagged by safety review",
  outputBlocked: "activation audio blocked",
};

const cloneRequestSchema = z
  .object({
    voice_id: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_-]{6,254}[A-Za-z0-9]$/, "voice_id must be 8 to 256 letters, digits, - or _, starting with a letter and not ending with - or _"),
    file_id: z.number().int().positive(),
    // The speech model the demonstration is spoken with, by the vendor's id.
    model: z.enum(SPEECH_MODELS),
    text: z.string().trim().min(1).max(1000),
    language_boost: z.enum(LANGUAGE_BOOST_VALUES).optional(),
    need_noise_reduction: z.boolean().optional(),
    need_volume_normalization: z.boolean().optional(),
    aigc_watermark: z.boolean().optional(),
  })
  .strict();

export function registerVendorAVoiceCloneRoutes(app: FastifyInstance, context: EmulatorContext, voices: ClonedVoices): void {
  const uploads = new UploadedFiles();
  registerVendorAUploadRoutes(app, context, uploads);
  app.post("/v1/voice_clone", (request, reply) => cloneVoice(request, reply, context, voices, uploads));
}

async function cloneVoice(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext, voices: ClonedVoices, uploads: UploadedFiles) {
  const received = await receiveCall(request, reply, context, cloneRequestSchema, WORDING, CLONE_CONTROL_NAME);
  if (received === null) return reply;
  const clone = received.body;
  const sample = uploads.get(clone.file_id);
  if (sample === undefined || sample.purpose !== "voice_clone") {
    return reply.send({ base_resp: invalidParams(`file_id ${clone.file_id} is not an uploaded voice_clone file`) });
  }
  const heard = await listenToSample(fileUrl(request, sample.storeId)).catch((error: unknown) => {
    if (error instanceof RecordingError) return error;
    throw error;
  });
  if (heard instanceof RecordingError) return reply.send({ base_resp: invalidParams(`file_id: ${heard.message}`) });
  voices.register(clone.voice_id, heard.timbre);
  const { file } = await context.files.save(
    (path) =>
      synthesizeSpeechToFile(
        { text: clone.text, language: subtagOfLanguageBoost(clone.language_boost ?? "auto"), speed: 1, pitch: 0, volume: 1, format: "mp3", sampleRate: DEMO_SAMPLE_RATE, timbre: heard.timbre },
        path,
      ),
    { contentType: AUDIO_CONTENT_TYPES.mp3, failsDownload: received.failsDownload },
  );
  return reply.send({
    input_sensitive: false,
    input_sensitive_type: 0,
    demo_audio: fileUrl(request, file.fileId),
    base_resp: BASE.success,
    trace_id: traceId(),
  });
}

interface HeardSample {
  timbre: Timbre;
}

async function listenToSample(url: string): Promise<HeardSample> {
  const sample = await fetchAcceptedRecording(url, {
    formats: CLONE_SAMPLE_LIMITS.formats,
    minSeconds: CLONE_SAMPLE_LIMITS.minSeconds,
    maxSeconds: CLONE_SAMPLE_LIMITS.maxSeconds,
    maxBytes: CLONE_SAMPLE_LIMITS.maxBytes,
  });
  const pitchHz = fundamentalHz(sample.pcm);
  if (pitchHz === null) throw new RecordingError("no voice could be heard in the sample");
  return { timbre: timbreForFundamental(pitchHz) };
}
