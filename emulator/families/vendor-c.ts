import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { FaultKind } from "../faults.js";
import { sendStoredFile } from "../serve-file.js";
import type { EmulatorContext, VendorFamily } from "../vendor-family.js";
import { sourcePicture } from "../media/video-materials.js";
import { acceptVideoRequest } from "../video-acceptance.js";
import { isJobFault, VideoJobBoard, type JobFault, type VideoJob } from "../video-jobs.js";
import { controlNameOf } from "../vendors/vendor-c-models.js";
import { readSynthesisInput, reworkParameterFields, synthesisInputSchema } from "./vendor-c-video-input.js";
import { registerVendorCImageRoutes } from "./vendor-c-image.js";

// vendorC video: Model Studio's asynchronous Wan 2.7 video synthesis (docs/providers/vendorC.md, reference copy
// docs/providers/reference/vendorC-video-synthesis.json), for generation from text, frames or references and
// for edits and extensions of a video, every input by URL in one `media` list. A POST with
// `X-DashScope-Async: enable` answers a task id; the task is read at /api/v1/tasks/{id} and goes PENDING →
// RUNNING → SUCCEEDED | FAILED (UNKNOWN when the vendor does not know it). No progress figure, no cancel.
// The frame is asked as a resolution tier ("720P") and a ratio. Refusals are HTTP errors with a flat
// {request_id, code, message}.

const FAMILY = "vendorC";
const SYNTHESIS_PATH = "/api/v1/services/aigc/video-generation/video-synthesis";
// A task is seen RUNNING once before it can succeed.
const RUNNING_PROGRESS = [50];

const synthesisSchema = z
  .object({
    model: z.string().min(1),
    input: synthesisInputSchema,
    parameters: z
      .object({
        resolution: z.enum(["480P", "720P", "1080P", "4K"]).default("1080P"),
        // Without it the clip takes the ratio of its first frame or video, or 16:9 from text alone.
        ratio: z.string().regex(/^\d+:\d+$/, "ratio must read w:h").optional(),
        duration: z.number().int().default(5),
        prompt_extend: z.boolean().default(true),
        watermark: z.boolean().default(false),
        seed: z.number().int().min(0).max(2_147_483_647).optional(),
        audio: z.boolean().optional(),
        shot_type: z.enum(["single", "multi"]).optional(),
        // Not in the reference: the last-frame image and the MOV container of vendorC3.0-video-prime.
        return_last_frame: z.boolean().default(false),
        format: z.enum(["mp4", "mov"]).default("mp4"),
        ...reworkParameterFields,
      })
      .strict(),
  })
  .strict();

type VendorCJob = VideoJob<{ submitTime: string; prompt: string; size: string }>;

function vendorCError(code: string, message: string) {
  return { request_id: randomUUID(), code, message };
}

// Times read like "2025-01-01 12:00:00.000", in UTC.
function vendorTime(date: Date): string {
  return date.toISOString().replace("T", " ").replace("Z", "");
}

export const vendorCFamily: VendorFamily = {
  name: FAMILY,
  registerRoutes(app, context) {
    const board = new VideoJobBoard<VendorCJob["details"]>(context.files, RUNNING_PROGRESS);
    app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
      const clientError = error.statusCode !== undefined && error.statusCode < 500;
      return reply
        .code(clientError ? 400 : 500)
        .send(vendorCError(clientError ? "InvalidParameter" : "InternalError", error.message ?? "error"));
    });
    app.post(SYNTHESIS_PATH, (request, reply) => submitSynthesis(request, reply, context, board));
    const imageTaskAnswer = registerVendorCImageRoutes(app, context);
    app.get<{ Params: { task_id: string } }>("/api/v1/tasks/:task_id", (request, reply) => {
      if (!hasBearerKey(request)) return reply.code(401).send(vendorCError("InvalidApiKey", "No API-key provided."));
      const image = imageTaskAnswer(request, request.params.task_id);
      if (image !== undefined) return reply.type("application/json").send(image);
      return reply.send({ request_id: randomUUID(), ...taskView(board.read(request.params.task_id), request.params.task_id, request) });
    });
    app.get<{ Params: { file_id: string } }>("/files/:file_id", (request, reply) =>
      sendStoredFile(reply, context.files.get(request.params.file_id), {
        notFound: vendorCError("NoSuchKey", "The specified key does not exist."),
        broken: vendorCError("InternalError", "object storage is unavailable"),
      }),
    );
  },
};

async function submitSynthesis(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext, board: VideoJobBoard<VendorCJob["details"]>) {
  const body = request.body as { model?: unknown } | undefined;
  const model = typeof body?.model === "string" ? body.model : null;
  context.requests.record({
    family: FAMILY,
    method: request.method,
    path: SYNTHESIS_PATH,
    model: model === null ? null : controlNameOf(model),
    at: new Date().toISOString(),
  });
  if (context.latencyMs > 0) await delay(context.latencyMs);
  if (!hasBearerKey(request)) return reply.code(401).send(vendorCError("InvalidApiKey", "No API-key provided."));
  if (request.headers["x-dashscope-async"] !== "enable") {
    return reply.code(403).send(vendorCError("AccessDenied", "current user api does not support synchronous calls"));
  }
  const parsed = synthesisSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return reply.code(400).send(vendorCError("InvalidParameter", `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`));
  }
  const { model: modelId, input, parameters } = parsed.data;
  const urls = readSynthesisInput(input, parameters);
  if ("problem" in urls) return reply.code(400).send(vendorCError("InvalidParameter", urls.problem));
  const withAudio = parameters.audio ?? false;
  const accepted = await acceptVideoRequest(context.files, FAMILY, modelId, urls, (_model, materials) => ({
    resolution: parameters.resolution.toLowerCase(),
    aspectRatio: parameters.ratio ?? (sourcePicture(materials) ? null : "16:9"),
    durationSeconds: parameters.duration,
    container: parameters.format,
    withAudio,
    returnLastFrame: parameters.return_last_frame,
  }), { prompt: input.prompt, negative_prompt: input.negative_prompt });
  if (accepted.outcome === "unknown_model") return reply.code(404).send(vendorCError("ModelNotFound", `Model not found (${modelId})!`));
  if (accepted.outcome === "refused") return reply.code(400).send(vendorCError("InvalidParameter", accepted.reason));
  const prompt = input.prompt ?? "";

  const fault = context.faults.take(FAMILY, controlNameOf(modelId));
  const { width, height } = accepted.frame;
  if (fault !== undefined && !isJobFault(fault.kind)) return sendFault(fault.kind, reply);
  const job = board.submit(
    {
      model: modelId,
      spec: {
        width,
        height,
        durationSeconds: parameters.duration,
        container: parameters.format,
        withAudio,
        watermark: parameters.watermark,
        prompt,
        seed: parameters.seed ?? null,
        returnLastFrame: parameters.return_last_frame,
        materials: accepted.materials,
      },
      details: { submitTime: vendorTime(new Date()), prompt, size: `${width}*${height}` },
    },
    isJobFault(fault?.kind) ? fault.kind : undefined,
  );
  return reply.send({ request_id: randomUUID(), output: { task_id: job.id, task_status: "PENDING" } });
}

// This vendor sends no Retry-After: a client backs off on its own.
function sendFault(kind: Exclude<FaultKind, JobFault>, reply: FastifyReply) {
  switch (kind) {
    case "http_500":
      return reply.code(500).send(vendorCError("InternalError", "An internal error has occured, please try again later or contact service support."));
    case "http_429":
      return reply.code(429).send(vendorCError("Throttling.RateQuota", "Requests rate limit exceeded, please try again later."));
    case "safety":
      return reply.code(400).send(vendorCError("DataInspectionFailed", "Input data may contain inappropriate content."));
    case "malformed":
      return reply.code(200).type("application/json").send('{"request_id": "');
  }
}

function statusWord(job: VendorCJob): string {
  if (job.undocumented) return "UNKNOWN";
  return { queued: "PENDING", running: "RUNNING", succeeded: "SUCCEEDED", failed: "FAILED", canceled: "CANCELED" }[job.phase];
}

function taskView(job: VendorCJob | undefined, taskId: string, request: FastifyRequest) {
  // The vendor answers an id it does not know (never created, or expired) with UNKNOWN rather than 404.
  if (job === undefined) return { output: { task_id: taskId, task_status: "UNKNOWN" } };
  const files = `${request.protocol}://${request.host}/${FAMILY}/files`;
  const finished = job.phase === "succeeded" || job.phase === "failed" || job.phase === "canceled";
  const output = {
    task_id: job.id,
    task_status: statusWord(job),
    submit_time: job.details.submitTime,
    ...(job.phase !== "queued" ? { scheduled_time: job.details.submitTime } : {}),
    ...(finished ? { end_time: vendorTime(job.updatedAt) } : {}),
    orig_prompt: job.details.prompt,
    ...(job.phase === "succeeded" && job.video ? { video_url: `${files}/${job.video.fileId}` } : {}),
    ...(job.phase === "succeeded" && job.lastFrame ? { last_frame_url: `${files}/${job.lastFrame.fileId}` } : {}),
    ...(job.phase === "failed" ? failureOf(job) : {}),
  };
  const usage = job.phase === "succeeded" ? { video_duration: job.spec.durationSeconds, video_ratio: job.details.size, video_count: 1 } : undefined;
  return { output, ...(usage ? { usage } : {}) };
}

function failureOf(job: VendorCJob): { code: string; message: string } {
  return job.failure === "content_filtered"
    ? { code: "DataInspectionFailed", message: "Output data may contain inappropriate content." }
    : { code: "InternalError", message: "The video could not be generated." };
}

function hasBearerKey(request: FastifyRequest): boolean {
  return /^Bearer\s+\S+/i.test(request.headers.authorization ?? "");
}
