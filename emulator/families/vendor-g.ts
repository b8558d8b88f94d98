import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { FaultKind } from "../faults.js";
import { traitsOf, type RecordingTraits } from "../media/audio-analysis.js";
import { fetchAcceptedRecording, RecordingError } from "../media/recording-input.js";
import { writeLyrics, writeTitle } from "../media/song-words.js";
import { FEMALE_TIMBRE, MALE_TIMBRE } from "../media/voice-timbre.js";
import { sendStoredFile } from "../serve-file.js";
import { isJobFault } from "../video-jobs.js";
import type { EmulatorContext, VendorFamily } from "../vendor-family.js";
import { acceptRawBodies, isRecord, parseJsonBody } from "./raw-json-body.js";
import { MusicTaskBoard, type MusicTask, type MusicTaskFault } from "./vendor-g-tasks.js";
import {
  controlNameOf,
  CREDIT_BALANCE,
  MODEL_LIMITS,
  NON_CUSTOM_PROMPT_CHARACTERS,
  TRACKS_PER_TASK,
  UPLOAD_FORMATS,
  type VendorGModelLimits,
} from "./vendor-g-models.js";

// vendorG, the second music family, as its Generate Music reference publishes it (docs/providers/vendorG.md):
// a generation task followed by polling record-info, two tracks per task. Every answer is `{code, msg, data}`
// sent with HTTP 200, the outcome in `code` (the reference's 400, 401, 404, 405, 413, 429, 430, 455); only a server
// error is also an HTTP 500. In custom mode `style` conditions the sound, `title` is required and `prompt` holds
// the lyrics; otherwise `prompt` alone describes the song and the vendor writes lyrics and title. upload-cover
// makes the song from a recording at `uploadUrl`. Faults and the request log name models by our neutral ids.

const FAMILY = "vendorG";
const OUTPUT_SAMPLE_RATE = 44100;

const weight = z.number().min(0).max(1).multipleOf(0.01).optional();
const generateSchema = z
  .object({
    model: z.enum(Object.keys(MODEL_LIMITS) as [string, ...string[]]),
    customMode: z.boolean(),
    instrumental: z.boolean(),
    callBackUrl: z.url(),
    prompt: z.string().optional(),
    style: z.string().optional(),
    title: z.string().optional(),
    negativeTags: z.string().optional(),
    vocalGender: z.enum(["m", "f"]).optional(),
    styleWeight: weight,
    weirdnessConstraint: weight,
    audioWeight: weight,
    personaId: z.string().optional(),
    personaModel: z.enum(["style_persona", "voice_persona"]).optional(),
  })
  .strict();
const coverSchema = generateSchema.extend({ uploadUrl: z.url() });
type CoverRequest = z.infer<typeof generateSchema> & { uploadUrl?: string };

export const vendorGFamily: VendorFamily = {
  name: FAMILY,
  registerRoutes(app, context) {
    acceptRawBodies(app);
    const board = new MusicTaskBoard(context.files);
    app.post("/api/v1/generate", (request, reply) => submit(request, reply, context, board, generateSchema));
    app.post("/api/v1/generate/upload-cover", (request, reply) => submit(request, reply, context, board, coverSchema));
    app.get<{ Querystring: { taskId?: string } }>("/api/v1/generate/record-info", (request, reply) => {
      if (!hasBearerKey(request)) return refuse(reply, 401, "Unauthorized: invalid or missing API key");
      const task = board.read(request.query.taskId ?? "");
      if (task === undefined) return refuse(reply, 400, `Invalid parameters: no task ${request.query.taskId ?? ""}`);
      return reply.send({ code: 200, msg: "success", data: recordView(request, task) });
    });
    app.get("/api/v1/generate/credit", (request, reply) => {
      if (!hasBearerKey(request)) return refuse(reply, 401, "Unauthorized: invalid or missing API key");
      return reply.send({ code: 200, msg: "success", data: CREDIT_BALANCE });
    });
    app.get<{ Params: { file_id: string } }>("/api/v1/files/:file_id", (request, reply) =>
      sendStoredFile(reply, context.files.get(request.params.file_id), {
        notFound: { code: 404, msg: "file not found", data: null },
        broken: { code: 500, msg: "file storage unavailable", data: null },
      }),
    );
  },
};

// A refusal, sent as the reference documents it: HTTP 200 with the code in the body, except a server error.
function refuse(reply: FastifyReply, code: number, msg: string) {
  return reply.code(code === 500 ? 500 : 200).send({ code, msg, data: null });
}

function hasBearerKey(request: FastifyRequest): boolean {
  return /^Bearer\s+\S+/i.test(request.headers.authorization ?? "");
}

async function submit(
  request: FastifyRequest,
  reply: FastifyReply,
  context: EmulatorContext,
  board: MusicTaskBoard,
  schema: typeof generateSchema | typeof coverSchema,
) {
  const body = parseJsonBody(request.body);
  const model = isRecord(body) && typeof body.model === "string" ? controlNameOf(body.model) : null;
  const path = request.url.split("?")[0] ?? request.url;
  context.requests.record({ family: FAMILY, method: request.method, path, model, at: new Date().toISOString() });
  if (context.latencyMs > 0) await delay(context.latencyMs);
  if (!hasBearerKey(request)) return refuse(reply, 401, "Unauthorized: invalid or missing API key");
  if (body === undefined) return refuse(reply, 400, "Invalid parameters: the body is not JSON");
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse(reply, 400, `Invalid parameters: ${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
  }
  const asked: CoverRequest = parsed.data;
  const limits = MODEL_LIMITS[asked.model] as VendorGModelLimits;
  const problem = songProblem(asked, limits);
  if (problem !== null) return refuse(reply, problem.code, problem.msg);

  const fault = context.faults.take(FAMILY, model);
  if (fault !== undefined && !isTaskFault(fault.kind)) return sendFault(fault.kind, reply);
  let reference: RecordingTraits | null = null;
  if (asked.uploadUrl !== undefined) {
    try {
      reference = await referenceTraits(asked.uploadUrl, limits);
    } catch (error) {
      if (!(error instanceof RecordingError)) throw error;
      return refuse(reply, 400, `Invalid parameters: uploadUrl: ${error.message}`);
    }
  }
  const style = (asked.customMode ? asked.style : asked.prompt) ?? "";
  const lyrics = asked.instrumental ? null : asked.customMode ? (asked.prompt ?? "") : writeLyrics(style);
  const { callBackUrl: _callBackUrl, ...param } = asked;
  const task = board.submit(
    {
      param: JSON.stringify(param),
      trackCount: TRACKS_PER_TASK,
      title: asked.customMode ? (asked.title ?? "") : writeTitle(style),
      tags: style,
      song: { style, lyrics, singer: asked.vocalGender === "f" ? FEMALE_TIMBRE : MALE_TIMBRE, reference },
      encoding: { format: "mp3", sampleRate: OUTPUT_SAMPLE_RATE, watermark: false },
    },
    fault !== undefined && isTaskFault(fault.kind) ? fault.kind : undefined,
  );
  return reply.send({ code: 200, msg: "success", data: { taskId: task.id } });
}

function isTaskFault(kind: FaultKind): kind is MusicTaskFault {
  return kind === "safety" || isJobFault(kind);
}

const characters = (text: string | undefined) => [...(text ?? "")].length;

// What the reference's parameter guide requires of each mode, and its length limits for the model.
function songProblem(asked: CoverRequest, limits: VendorGModelLimits): { code: number; msg: string } | null {
  const tooLong = (field: string, max: number) => ({ code: 413, msg: `${field} too long: at most ${max} characters` });
  if (asked.customMode) {
    if (!asked.style?.trim()) return { code: 400, msg: "Invalid parameters: style is required in custom mode" };
    if (!asked.title?.trim()) return { code: 400, msg: "Invalid parameters: title is required in custom mode" };
    if (!asked.instrumental && !asked.prompt?.trim()) return { code: 400, msg: "Invalid parameters: prompt is required in custom mode without instrumental" };
    if (characters(asked.style) > limits.styleCharacters) return tooLong("style", limits.styleCharacters);
    if (characters(asked.title) > limits.titleCharacters) return tooLong("title", limits.titleCharacters);
    if (characters(asked.prompt) > limits.customPromptCharacters) return tooLong("prompt", limits.customPromptCharacters);
    return null;
  }
  if (!asked.prompt?.trim()) return { code: 400, msg: "Invalid parameters: prompt is required" };
  if (asked.style !== undefined || asked.title !== undefined) return { code: 400, msg: "Invalid parameters: style and title are left empty in non-custom mode" };
  if (characters(asked.prompt) > NON_CUSTOM_PROMPT_CHARACTERS) return tooLong("prompt", NON_CUSTOM_PROMPT_CHARACTERS);
  return null;
}

async function referenceTraits(url: string, limits: VendorGModelLimits): Promise<RecordingTraits> {
  const recording = await fetchAcceptedRecording(url, { formats: UPLOAD_FORMATS, minSeconds: 0, maxSeconds: limits.uploadSeconds });
  return traitsOf(recording.pcm);
}

// The submission faults in the reference's terms: a server error, its call-frequency limit (430, which names no
// wait) and a truncated answer.
function sendFault(kind: Exclude<FaultKind, MusicTaskFault>, reply: FastifyReply) {
  switch (kind) {
    case "http_500":
      return refuse(reply, 500, "Server error: music engine unavailable");
    case "http_429":
      return refuse(reply, 430, "Your call frequency is too high. Please try again later.");
    case "malformed":
      return reply.type("application/json").send('{"code": 200, "data": {"taskId": ');
  }
}

function recordView(request: FastifyRequest, task: MusicTask) {
  const ready = task.status === "FIRST_SUCCESS" ? 1 : task.status === "SUCCESS" ? task.tracks.length : 0;
  const failure =
    task.status === "SENSITIVE_WORD_ERROR"
      ? { errorCode: 400, errorMessage: "the content contains prohibited words" }
      : task.status === "GENERATE_AUDIO_FAILED"
        ? { errorCode: 500, errorMessage: "audio generation failed" }
        : { errorCode: null, errorMessage: null };
  return {
    taskId: task.id,
    parentMusicId: "",
    param: task.param,
    response: task.written
      ? {
          taskId: task.id,
          sunoData: task.tracks.map((track, index) => ({
            id: track.id,
            audioUrl: index < ready ? `${request.protocol}://${request.host}/${FAMILY}/api/v1/files/${track.file?.fileId ?? ""}` : "",
            prompt: track.lyrics ?? "",
            title: track.title,
            tags: track.tags,
            duration: index < ready ? Math.round((track.durationSeconds ?? 0) * 100) / 100 : null,
          })),
        }
      : null,
    status: task.status,
    type: "GENERATE",
    ...failure,
  };
}
