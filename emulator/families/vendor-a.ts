import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { AUDIO_CONTENT_TYPES, type AudioFormat } from "../audio-encoding.js";
import type { FaultKind } from "../faults.js";
import { synthesizeSpeechToFile } from "../speech-synthesis.js";
import { LANGUAGE_BOOST_VALUES, subtagOfLanguageBoost } from "./vendor-a-languages.js";
import { ClonedVoices } from "./vendor-a-cloned-voices.js";
import { registerVendorAChatRoutes } from "./vendor-a-chat.js";
import { registerVendorAImageRoutes } from "./vendor-a-image.js";
import { registerVendorAMusicRoutes } from "./vendor-a-music.js";
import { registerVendorAVideoRoutes } from "./vendor-a-video.js";
import { registerVendorAVoiceCloneRoutes } from "./vendor-a-voice-clone.js";
import { controlNameOf, SPEECH_MODELS, SYSTEM_VOICES } from "./vendor-a-models.js";
import type { EmulatorContext, VendorFamily } from "../vendor-family.js";
import { invalidParams, sendHttpFault, traceId, vendorAStatus } from "./vendor-a-calls.js";

// vendorA speech: the vendor's synchronous T2A v2 call (docs/providers/vendorA.md). Like the real vendor it
// takes the vendor's model and voice ids, answers vendor-side errors with HTTP 200 and a non-zero
// base_resp.status_code, and hands back the audio in `data.audio`: hex by default, a URL to download when the
// request asks for `output_format: "url"`. Faults and the request log name models by our neutral ids, the ids
// tests script them with.

const FAMILY = "vendorA";
const VOICE_NOT_FOUND = 2054;
const MAX_TEXT_CHARACTERS = 10_000;
const TASK_STATUS_SUCCEEDED = 2;
const UNDOCUMENTED_TASK_STATUS = 7;
const PITCH_SEMITONES = 12;

// T2A v2's audio settings: these formats, each at any of these rates (no opus, nothing above 44.1 kHz).
const SPEECH_FORMATS = ["mp3", "pcm", "flac", "wav"] as const satisfies readonly AudioFormat[];
const SAMPLE_RATES: readonly number[] = [8000, 16000, 22050, 24000, 32000, 44100];

const speechRequestSchema = z
  .object({
    model: z.enum(SPEECH_MODELS),
    stream: z.literal(false).optional(),
    text: z
      .string()
      .max(MAX_TEXT_CHARACTERS)
      .refine((text) => text.trim().length > 0, "text must not be empty"),
    voice_setting: z.object({
      voice_id: z.string().min(1),
      speed: z.number().min(0.5).max(2),
      vol: z.number().gt(0).max(10),
      pitch: z.number().int().min(-PITCH_SEMITONES).max(PITCH_SEMITONES),
      emotion: z.enum(["happy", "sad", "angry", "fearful", "disgusted", "surprised", "calm", "fluent", "whisper"]).optional(),
    }),
    audio_setting: z.object({
      format: z.enum(SPEECH_FORMATS),
      sample_rate: z.number().int(),
      channel: z.literal(1),
    }),
    language_boost: z.enum(LANGUAGE_BOOST_VALUES).optional(),
    pronunciation_dict: z.object({ tone: z.array(z.string()) }).optional(),
    output_format: z.enum(["hex", "url"]).optional(),
  })
  .superRefine((body, issues) => {
    const { sample_rate: sampleRate } = body.audio_setting;
    if (!SAMPLE_RATES.includes(sampleRate)) {
      issues.addIssue({ code: "custom", path: ["audio_setting", "sample_rate"], message: `sample_rate must be one of ${SAMPLE_RATES.join(", ")}, not ${sampleRate}` });
    }
  });
type SpeechRequestBody = z.infer<typeof speechRequestSchema>;

const STATUS = vendorAStatus({ internalError: "upstream synthesis engine crashed", inputFlagged: "content flagged by safety review", outputBlocked: "generated audio blocked" });

export const vendorAFamily: VendorFamily = {
  name: FAMILY,
  registerRoutes(app, context) {
    // The body is parsed here rather than by Fastify so that an unparseable one gets the vendor's own answer.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
    app.setErrorHandler((error, _request, reply) =>
      reply.code(500).send({ base_resp: { status_code: 1000, status_msg: `internal error: ${errorMessage(error)}` } }),
    );

    const clonedVoices = new ClonedVoices();
    app.post("/v1/t2a_v2", (request, reply) => submitSpeech(request, reply, context, clonedVoices));
    app.get<{ Params: { file_id: string } }>("/v1/files/:file_id", (request, reply) =>
      downloadFile(request.params.file_id, reply, context),
    );
    registerVendorAImageRoutes(app, context);
    registerVendorAChatRoutes(app, context);
    registerVendorAVideoRoutes(app, context);
    registerVendorAMusicRoutes(app, context);
    registerVendorAVoiceCloneRoutes(app, context, clonedVoices);
  },
};

async function submitSpeech(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext, clonedVoices: ClonedVoices) {
  const body = parseJson(request.body);
  const vendorModel = isRecord(body) && typeof body.model === "string" ? body.model : null;
  const model = vendorModel === null ? null : controlNameOf(vendorModel);
  context.requests.record({
    family: FAMILY,
    method: request.method,
    path: request.url.split("?")[0] ?? request.url,
    model,
    at: new Date().toISOString(),
  });
  if (context.latencyMs > 0) await delay(context.latencyMs);

  if (!hasBearerKey(request.headers.authorization)) {
    return reply.code(401).send({ base_resp: STATUS.authenticationFailed });
  }
  if (body === undefined) return reply.send({ base_resp: invalidParams("body is not valid JSON") });
  const parsed = speechRequestSchema.safeParse(body);
  if (!parsed.success) return reply.send({ base_resp: invalidParams(describeIssue(parsed.error)) });

  const fault = context.faults.take(FAMILY, model);
  if (fault?.kind === "hang") {
    // Fastify is started with forceCloseConnections, so closing the emulator ends this socket.
    reply.hijack();
    return reply;
  }
  if (fault !== undefined && fault.kind !== "bad_download") return sendFault(fault.kind, fault.retryAfterSeconds, reply);

  const speech = parsed.data;
  const format = speech.audio_setting.format;
  // A cloned voice speaks with the timbre heard in its sample; a system voice with espeak's default voice.
  const timbre = clonedVoices.find(speech.voice_setting.voice_id);
  if (timbre === undefined && !SYSTEM_VOICES.has(speech.voice_setting.voice_id)) {
    return reply.send({ base_resp: { status_code: VOICE_NOT_FOUND, status_msg: `voice id not exist: ${speech.voice_setting.voice_id}` }, trace_id: traceId() });
  }
  const { file, written: synthesized } = await context.files.save(
    (path) =>
      synthesizeSpeechToFile(
        {
          text: applyPronunciations(speech.text, speech.pronunciation_dict?.tone ?? []),
          language: subtagOfLanguageBoost(speech.language_boost ?? "auto"),
          speed: speech.voice_setting.speed,
          pitch: speech.voice_setting.pitch / PITCH_SEMITONES,
          volume: speech.voice_setting.vol,
          format,
          sampleRate: speech.audio_setting.sample_rate,
          ...(timbre ? { timbre } : {}),
        },
        path,
      ),
    { contentType: AUDIO_CONTENT_TYPES[format], failsDownload: fault?.kind === "bad_download" },
  );
  return reply.send({
    base_resp: STATUS.success,
    data: {
      audio:
        speech.output_format === "url"
          ? `${request.protocol}://${request.host}/${FAMILY}/v1/files/${file.fileId}`
          : (await readFile(file.path)).toString("hex"),
      status: TASK_STATUS_SUCCEEDED,
    },
    extra_info: {
      audio_length: synthesized.durationMs,
      audio_sample_rate: speech.audio_setting.sample_rate,
      audio_size: file.sizeBytes,
      audio_format: format,
      usage_characters: [...speech.text].length,
    },
    trace_id: traceId(),
  });
}

function sendFault(kind: Exclude<FaultKind, "hang" | "bad_download">, retryAfterSeconds: number | undefined, reply: FastifyReply) {
  switch (kind) {
    case "http_500":
    case "http_429":
      return sendHttpFault(kind, retryAfterSeconds, reply, STATUS.internalError);
    case "safety":
      return reply.send({ base_resp: STATUS.inputFlagged, trace_id: traceId() });
    case "content_filtered":
      return reply.send({ base_resp: STATUS.outputBlocked, trace_id: traceId() });
    case "unknown_status":
      return reply.send({ base_resp: STATUS.success, data: { status: UNDOCUMENTED_TASK_STATUS }, trace_id: traceId() });
    case "malformed":
      return reply.type("application/json").send("not json{");
  }
}

async function downloadFile(fileId: string, reply: FastifyReply, context: EmulatorContext) {
  const file = context.files.get(fileId);
  if (file === undefined) return reply.code(404).send({ base_resp: { status_code: 2013, status_msg: "file not found" } });
  if (file.failsDownload) {
    return reply.code(500).send({ base_resp: { status_code: 1000, status_msg: "internal error: file storage unavailable" } });
  }
  return reply.type(file.contentType).header("content-length", file.sizeBytes).send(createReadStream(file.path));
}

// Entries are "text/replacement", as the vendor documents them; the replacement is what gets spoken.
function applyPronunciations(text: string, tones: readonly string[]): string {
  return tones.reduce((spoken, tone) => {
    const separator = tone.indexOf("/");
    if (separator <= 0) return spoken;
    return spoken.replaceAll(tone.slice(0, separator), tone.slice(separator + 1));
  }, text);
}

function hasBearerKey(authorization: string | undefined): boolean {
  return /^Bearer\s+\S+/i.test(authorization ?? "");
}

function parseJson(body: unknown): unknown {
  if (typeof body !== "string") return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeIssue(error: z.ZodError<SpeechRequestBody>): string {
  const issue = error.issues[0];
  if (issue === undefined) return "request body is invalid";
  return `${issue.path.join(".") || "body"}: ${issue.message}`;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

