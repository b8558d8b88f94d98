import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { MUSIC_MODELS } from "../../core/catalog/audio-models.js";
import type { FaultKind } from "../faults.js";
import { traitsOf, type RecordingTraits } from "../media/audio-analysis.js";
import { fetchAcceptedRecording, RecordingError } from "../media/recording-input.js";
import { writeLyrics, writeTitle } from "../media/song-words.js";
import { FEMALE_TIMBRE, MALE_TIMBRE } from "../media/voice-timbre.js";
import { sendStoredFile } from "../serve-file.js";
import { isJobFault, type JobFault } from "../video-jobs.js";
import type { EmulatorContext, VendorFamily } from "../vendor-family.js";
import { acceptRawBodies, isRecord, parseJsonBody } from "./raw-json-body.js";
import { MusicTaskBoard, type MusicTask } from "./vendor-g-tasks.js";

// vendorG, the second music family (docs/providers/vendorG.md): a generation task followed by polling, two
// tracks per task. Every answer is `{code, msg, data}`; a refusal's HTTP status is its `code`. In custom mode
// `style` conditions the sound and `prompt` holds the lyrics; otherwise `prompt` describes the song and the
// vendor writes the lyrics. upload-cover makes the song from a reference recording at `uploadUrl`.

const FAMILY = "vendorG";
const MODEL = MUSIC_MODELS.find((m) => m.family === FAMILY)!;
const LIMITS = MODEL.constraints;
const OPTIONS = LIMITS.model_options.vendorG!;
const OUTPUT_SAMPLE_RATE = 44100;
const DEFAULT_RETRY_AFTER_SECONDS = 1;

const weight = z.number().min(0).max(1).optional();
const generateSchema = z
  .object({
    model: z.literal(MODEL.id),
    customMode: z.boolean(),
    instrumental: z.boolean(),
    prompt: z.string().max(LIMITS.text_to_music.max_lyrics_characters).optional(),
    style: z.string().trim().min(1).optional(),
    title: z.string().trim().min(1).max(LIMITS.max_title_characters).optional(),
    negativeTags: z.string().max(OPTIONS.max_negative_tags_characters).optional(),
    vocalGender: z.enum(OPTIONS.vocal_genders as [string, ...string[]]).optional(),
    styleWeight: weight,
    weirdnessConstraint: weight,
    audioWeight: weight,
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
      if (task === undefined) return refuse(reply, 404, `task ${request.query.taskId ?? ""} not found`);
      return reply.send({ code: 200, msg: "success", data: recordView(request, task) });
    });
    app.get<{ Params: { file_id: string } }>("/api/v1/files/:file_id", (request, reply) =>
      sendStoredFile(reply, context.files.get(request.params.file_id), {
        notFound: { code: 404, msg: "file not found", data: null },
        broken: { code: 500, msg: "file storage unavailable", data: null },
      }),
    );
  },
};

function refuse(reply: FastifyReply, code: number, msg: string) {
  return reply.code(code).send({ code, msg, data: null });
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
  const model = isRecord(body) && typeof body.model === "string" ? body.model : null;
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
  const problem = songProblem(asked);
  if (problem !== null) return refuse(reply, problem.code, problem.msg);

  const fault = context.faults.take(FAMILY, asked.model);
  if (fault !== undefined && !isJobFault(fault.kind)) return sendFault(fault.kind, fault.retryAfterSeconds, reply);
  let reference: RecordingTraits | null = null;
  if (asked.uploadUrl !== undefined) {
    try {
      reference = await referenceTraits(asked.uploadUrl);
    } catch (error) {
      if (!(error instanceof RecordingError)) throw error;
      return refuse(reply, 400, `Invalid parameters: uploadUrl: ${error.message}`);
    }
  }
  const style = (asked.customMode ? asked.style : asked.prompt) ?? "";
  const lyrics = asked.instrumental ? null : asked.customMode && asked.prompt?.trim() ? asked.prompt : writeLyrics(style);
  const task = board.submit(
    {
      trackCount: LIMITS.clips_per_task,
      title: asked.title ?? writeTitle(style),
      tags: style,
      song: { style, lyrics, singer: asked.vocalGender === "f" ? FEMALE_TIMBRE : MALE_TIMBRE, reference },
      encoding: { format: "mp3", sampleRate: OUTPUT_SAMPLE_RATE, watermark: false },
    },
    isJobFault(fault?.kind) ? fault.kind : undefined,
  );
  return reply.send({ code: 200, msg: "success", data: { taskId: task.id } });
}

// What the modes require of each other, in the vendor's words; text limits depend on the endpoint.
function songProblem(asked: CoverRequest): { code: number; msg: string } | null {
  const limits = asked.uploadUrl === undefined ? LIMITS.text_to_music : LIMITS.reference_audio_to_music;
  const described = asked.customMode ? asked.style : asked.prompt;
  if (!described?.trim()) return { code: 400, msg: `Invalid parameters: ${asked.customMode ? "style" : "prompt"} is required` };
  if ([...described].length > limits.max_prompt_characters) {
    return { code: 413, msg: `Prompt too long: at most ${limits.max_prompt_characters} characters` };
  }
  if (!asked.customMode && asked.style !== undefined) return { code: 400, msg: "Invalid parameters: style is only taken in custom mode" };
  if (asked.instrumental && asked.vocalGender !== undefined) return { code: 400, msg: "Invalid parameters: vocalGender needs vocals" };
  if (asked.instrumental && asked.customMode && asked.prompt?.trim()) return { code: 400, msg: "Invalid parameters: an instrumental has no lyrics" };
  return null;
}

async function referenceTraits(url: string): Promise<RecordingTraits> {
  const limits = LIMITS.reference_audio_to_music;
  const recording = await fetchAcceptedRecording(url, {
    formats: limits.reference_formats,
    minSeconds: limits.min_reference_seconds,
    maxSeconds: limits.max_reference_seconds,
  });
  return traitsOf(recording.pcm);
}

function sendFault(kind: Exclude<FaultKind, JobFault>, retryAfterSeconds: number | undefined, reply: FastifyReply) {
  switch (kind) {
    case "http_500":
      return refuse(reply, 500, "Internal server error: music engine unavailable");
    case "http_429":
      reply.header("retry-after", String(retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS));
      return refuse(reply, 429, "Too many requests: rate limit exceeded");
    case "safety":
      return refuse(reply, 451, "SENSITIVE_WORD_ERROR: the prompt contains sensitive words");
    case "malformed":
      return reply.type("application/json").send('{"code": 200, "data": {"taskId": ');
  }
}

function recordView(request: FastifyRequest, task: MusicTask) {
  const ready = task.status === "FIRST_SUCCESS" ? task.tracks.slice(0, 1) : task.status === "SUCCESS" ? task.tracks : [];
  const failure =
    task.status === "SENSITIVE_WORD_ERROR"
      ? { errorCode: 451, errorMessage: "the generated lyrics contain sensitive words" }
      : task.status === "GENERATE_AUDIO_FAILED"
        ? { errorCode: 500, errorMessage: "audio generation failed" }
        : { errorCode: null, errorMessage: null };
  return {
    taskId: task.id,
    status: task.status,
    createTime: task.createdAt,
    response:
      ready.length === 0
        ? null
        : {
            tracks: ready.map((track) => ({
              id: track.id,
              audioUrl: `${request.protocol}://${request.host}/${FAMILY}/api/v1/files/${track.file?.fileId ?? ""}`,
              title: track.title,
              tags: track.tags,
              lyrics: track.lyrics,
              duration: Math.round((track.durationSeconds ?? 0) * 100) / 100,
            })),
          },
    ...failure,
  };
}
