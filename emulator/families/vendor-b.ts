import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { FaultKind } from "../faults.js";
import { sendStoredFile } from "../serve-file.js";
import type { EmulatorContext, VendorFamily } from "../vendor-family.js";
import { acceptVideoRequest } from "../video-acceptance.js";
import { isJobFault, VideoJobBoard, type JobFault, type VideoJob } from "../video-jobs.js";
import { contentItemSchema, readContent } from "./vendor-b-content.js";
import { registerVendorBEnhancerRoutes } from "./vendor-b-enhancer.js";
import { vendorBError } from "./vendor-b-errors.js";
import { controlNameOf } from "../vendors/vendor-b-models.js";

// vendorB: video generation tasks as BytePlus ModelArk publishes them (docs/providers/vendorB.md, reference copy
// docs/providers/reference/vendorB-video-generation.json). A task is created from a `content` list (the prompt
// and media by URL, which the vendor downloads), read until `succeeded`, `failed`, `cancelled` or `expired`, and
// can be cancelled with DELETE. Refusals are HTTP errors with {error: {code, message}}.

const FAMILY = "vendorB";
const TASKS_PATH = "/api/v3/contents/generations/tasks";
// Progress reported at each running stage: a task is seen running twice before it can succeed.
const RUNNING_PROGRESS = [35, 70];
const DEFAULT_RETRY_AFTER_SECONDS = 1;
const FRAMES_PER_SECOND = 24;
// What the vendor reports of a task it was not told otherwise about: its default tier and expiry (48 hours).
const SERVICE_TIER = "default";
const EXECUTION_EXPIRES_AFTER_SECONDS = 172_800;

// The reference's create fields, and no other (the vendor answers MP4 and has no container field).
const createTaskSchema = z
  .object({
    model: z.string().min(1),
    content: z.array(contentItemSchema).min(1),
    callback_url: z.string().url().optional(),
    return_last_frame: z.boolean().default(false),
    service_tier: z.enum(["default", "flex"]).default(SERVICE_TIER),
    execution_expires_after: z.number().int().min(3_600).max(259_200).default(EXECUTION_EXPIRES_AFTER_SECONDS),
    generate_audio: z.boolean().default(true),
    draft: z.literal(false).optional(),
    camera_fixed: z.boolean().optional(),
    watermark: z.boolean().default(false),
    seed: z.number().int().min(-1).max(4_294_967_295).optional(),
    resolution: z.string().default("720p"),
    // `adaptive`: the ratio of the first frame, last frame or source video.
    ratio: z.string().default("16:9"),
    // Seedance 2.x: 4 to 15 s, or -1 for the model's choice (an extension's final length too).
    duration: z.number().int().refine((seconds) => seconds === -1 || (seconds >= 4 && seconds <= 15), "duration must be 4 to 15, or -1").default(5),
    tools: z.array(z.object({ type: z.literal("web_search") }).strict()).optional(),
  })
  .strict();

type VendorBJob = VideoJob<{ resolution: string; ratio: string; seed: number | null; serviceTier: string; expiresAfter: number }>;

const AUTHENTICATION_FAILED = vendorBError("AuthenticationError", "the API key in the request is missing or invalid");

export const vendorBFamily: VendorFamily = {
  name: FAMILY,
  registerRoutes(app, context) {
    const board = new VideoJobBoard<VendorBJob["details"]>(context.files, RUNNING_PROGRESS);
    app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode < 500 ? 400 : 500;
      return reply.code(status).send(vendorBError(status === 400 ? "InvalidParameter" : "InternalServiceError", error.message ?? "error"));
    });
    app.post(TASKS_PATH, (request, reply) => createTask(request, reply, context, board));
    app.get<{ Params: { id: string } }>(`${TASKS_PATH}/:id`, (request, reply) => {
      if (!hasBearerKey(request)) return reply.code(401).send(AUTHENTICATION_FAILED);
      const job = board.read(request.params.id);
      if (job === undefined) return reply.code(404).send(vendorBError("ResourceNotFound", `task ${request.params.id} does not exist`));
      return reply.send(taskView(job, request));
    });
    app.delete<{ Params: { id: string } }>(`${TASKS_PATH}/:id`, (request, reply) => {
      if (!hasBearerKey(request)) return reply.code(401).send(AUTHENTICATION_FAILED);
      const outcome = board.cancel(request.params.id);
      if (outcome === undefined) return reply.code(404).send(vendorBError("ResourceNotFound", `task ${request.params.id} does not exist`));
      if (outcome === "finished") {
        return reply.code(409).send(vendorBError("InvalidAction.TaskNotCancellable", "only a queued or running task can be cancelled"));
      }
      return reply.send({});
    });
    app.get<{ Params: { file_id: string } }>("/files/:file_id", (request, reply) =>
      sendStoredFile(reply, context.files.get(request.params.file_id), {
        notFound: vendorBError("ResourceNotFound", "file not found"),
        broken: vendorBError("InternalServiceError", "object storage is unavailable"),
      }),
    );
    registerVendorBEnhancerRoutes(app, context);
  },
};

async function createTask(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext, board: VideoJobBoard<VendorBJob["details"]>) {
  const body = request.body as { model?: unknown } | undefined;
  const model = typeof body?.model === "string" ? body.model : null;
  context.requests.record({
    family: FAMILY,
    method: request.method,
    path: TASKS_PATH,
    model: model === null ? null : controlNameOf(model),
    at: new Date().toISOString(),
  });
  if (context.latencyMs > 0) await delay(context.latencyMs);
  if (!hasBearerKey(request)) return reply.code(401).send(AUTHENTICATION_FAILED);
  const parsed = createTaskSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return reply.code(400).send(vendorBError("InvalidParameter", issue?.message ?? "invalid body", issue?.path.join(".")));
  }
  const task = parsed.data;
  const read = readContent(task.content);
  if ("problem" in read) return reply.code(400).send(vendorBError("InvalidParameter", read.problem, "content"));
  const ratio = task.ratio === "adaptive" ? null : task.ratio;
  const accepted = await acceptVideoRequest(context.files, FAMILY, task.model, read.urls, () => ({
    resolution: task.resolution,
    aspectRatio: ratio,
    durationSeconds: task.duration,
    container: "mp4",
    withAudio: task.generate_audio,
    returnLastFrame: task.return_last_frame,
  }));
  if (accepted.outcome === "unknown_model") {
    return reply.code(404).send(vendorBError("InvalidEndpointOrModel.NotFound", `the model ${task.model} does not exist or you have no access to it`));
  }
  if (accepted.outcome === "refused") return reply.code(400).send(vendorBError("InvalidParameter", accepted.reason, accepted.control));

  const fault = context.faults.take(FAMILY, controlNameOf(task.model));
  if (fault !== undefined && !isJobFault(fault.kind)) return sendFault(fault.kind, fault.retryAfterSeconds, reply);
  const seed = task.seed === undefined || task.seed < 0 ? null : task.seed;
  const job = board.submit(
    {
      id: `cgt-${new Date().toISOString().slice(0, 10).replaceAll("-", "")}-${randomBytes(6).toString("hex")}`,
      model: task.model,
      spec: {
        ...accepted.frame,
        durationSeconds: task.duration,
        container: "mp4",
        withAudio: task.generate_audio,
        watermark: task.watermark,
        prompt: read.prompt,
        seed,
        returnLastFrame: task.return_last_frame,
        materials: accepted.materials,
      },
      details: { resolution: task.resolution, ratio: task.ratio, seed, serviceTier: task.service_tier, expiresAfter: task.execution_expires_after },
    },
    isJobFault(fault?.kind) ? fault.kind : undefined,
  );
  return reply.send({ id: job.id });
}

function sendFault(kind: Exclude<FaultKind, JobFault>, retryAfterSeconds: number | undefined, reply: FastifyReply) {
  switch (kind) {
    case "http_500":
      return reply.code(500).send(vendorBError("InternalServiceError", "the service encountered an unexpected internal error"));
    case "http_429":
      return reply
        .code(429)
        .header("retry-after", String(retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS))
        .send(vendorBError("RateLimitExceeded.EndpointRPMExceeded", "the request rate of this endpoint exceeded its limit"));
    case "safety":
      return reply
        .code(400)
        .send(vendorBError("InputTextSensitiveContentDetected", "the request failed because the input text may contain sensitive information", "content"));
    case "malformed":
      return reply.code(200).type("application/json").send('{"id": "cgt-');
  }
}

// Status words of this vendor; `paused` is what the unknown_status fault makes it say, which is documented nowhere.
function statusWord(job: VendorBJob): string {
  if (job.undocumented) return "paused";
  return job.phase === "canceled" ? "cancelled" : job.phase;
}

function jobError(job: VendorBJob) {
  if (job.phase !== "failed") return null;
  return job.failure === "content_filtered"
    ? { code: "OutputVideoSensitiveContentDetected", message: "the generated video may contain sensitive information" }
    : { code: "InternalServiceError", message: "the video could not be generated" };
}

function taskView(job: VendorBJob, request: FastifyRequest) {
  const files = `${request.protocol}://${request.host}/${FAMILY}/files`;
  const { video, lastFrame, spec } = job;
  return {
    id: job.id,
    model: job.model,
    status: statusWord(job),
    error: jobError(job),
    ...(job.phase === "succeeded" && video
      ? { content: { video_url: `${files}/${video.fileId}`, ...(lastFrame ? { last_frame_url: `${files}/${lastFrame.fileId}` } : {}) } }
      : {}),
    // Like the platform it imitates, usage is counted in tokens: one per 1,024 generated pixels-frames.
    ...(job.phase === "succeeded" ? { usage: { completion_tokens: tokensOf(job), total_tokens: tokensOf(job) } } : {}),
    created_at: Math.floor(job.createdAt.getTime() / 1000),
    updated_at: Math.floor(job.updatedAt.getTime() / 1000),
    seed: job.details.seed ?? -1,
    resolution: job.details.resolution,
    ratio: job.details.ratio,
    duration: spec.durationSeconds,
    framespersecond: FRAMES_PER_SECOND,
    generate_audio: spec.withAudio,
    draft: false,
    service_tier: job.details.serviceTier,
    execution_expires_after: job.details.expiresAfter,
  };
}

function tokensOf(job: VendorBJob): number {
  const { width, height, durationSeconds } = job.spec;
  return Math.round((width * height * FRAMES_PER_SECOND * durationSeconds) / 1024);
}

function hasBearerKey(request: FastifyRequest): boolean {
  return /^Bearer\s+\S+/i.test(request.headers.authorization ?? "");
}
