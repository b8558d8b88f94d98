import { randomInt } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { FaultKind } from "../faults.js";
import type { EmulatorContext } from "../vendor-family.js";
import type { MaterialUrls } from "../media/video-materials.js";
import { acceptVideoRequest } from "../video-acceptance.js";
import { capabilityOf } from "../video-input-limits.js";
import { isJobFault, VideoJobBoard, type JobFault, type VideoJob } from "../video-jobs.js";
import { isRecord, parseJsonBody } from "./raw-json-body.js";
import { invalidParams, sendHttpFault, vendorAStatus } from "./vendor-a-calls.js";

// vendorA video (docs/providers/vendorA.md, "Video"): submit a generation task (from a prompt, strict first and
// last frames, or subject reference images, all by URL), query it until Success or Fail,
// then look the produced file up in the files API, which gives its download URL (served by the family's
// /v1/files/{file_id} route). Like vendorA speech, vendor-side errors come back in base_resp, mostly under
// HTTP 200. A task cannot be cancelled.

const FAMILY = "vendorA";
const SUBMIT_PATH = "/v1/video_generation";
// A task is seen Processing once before it can succeed.
const RUNNING_PROGRESS = [50];

const STATUS = {
  ...vendorAStatus({ internalError: "video engine unavailable", inputFlagged: "prompt flagged by safety review", outputBlocked: "generated video blocked" }),
  generationFailed: { status_code: 1000, status_msg: "internal error: video generation failed" },
};

const videoRequestSchema = z
  .object({
    model: z.string().min(1),
    prompt: z.string().trim().min(1).max(2000).optional(),
    first_frame_image: z.string().min(1).optional(),
    last_frame_image: z.string().min(1).optional(),
    subject_reference: z.array(z.object({ type: z.string().min(1), image: z.array(z.string().min(1)).length(1) }).strict()).min(1).optional(),
    duration: z.number().int().default(6),
    resolution: z.enum(["720P", "1080P"]).default("720P"),
    aspect_ratio: z.string().default("16:9"),
    seed: z.number().int().min(0).optional(),
    prompt_optimizer: z.boolean().default(true),
    aigc_watermark: z.boolean().default(true),
  })
  .strict();

type VendorAJob = VideoJob<{ fileId: string; createdAt: number }>;

export function registerVendorAVideoRoutes(app: FastifyInstance, context: EmulatorContext): void {
  const board = new VideoJobBoard<VendorAJob["details"]>(context.files, RUNNING_PROGRESS);
  // The files API names files by number; each task's video is registered under a file id of its own.
  const taskOfFile = new Map<string, string>();
  app.post(SUBMIT_PATH, (request, reply) => submitVideo(request, reply, context, board, taskOfFile));
  app.get<{ Querystring: { task_id?: string } }>("/v1/query/video_generation", (request, reply) => {
    if (!hasBearerKey(request)) return reply.code(401).send({ base_resp: STATUS.authenticationFailed });
    const job = board.read(request.query.task_id ?? "");
    if (job === undefined) return reply.send({ base_resp: invalidParams(`task ${request.query.task_id ?? ""} not found`) });
    return reply.send(queryView(job));
  });
  app.get<{ Querystring: { file_id?: string } }>("/v1/files/retrieve", (request, reply) => {
    if (!hasBearerKey(request)) return reply.code(401).send({ base_resp: STATUS.authenticationFailed });
    const job = board.peek(taskOfFile.get(request.query.file_id ?? "") ?? "");
    if (job?.phase !== "succeeded" || job.video === null) return reply.send({ base_resp: invalidParams(`file ${request.query.file_id ?? ""} not found`) });
    return reply.send({
      file: {
        file_id: Number(job.details.fileId),
        bytes: job.video.sizeBytes,
        created_at: job.details.createdAt,
        filename: `output.${job.spec.container}`,
        purpose: "video_generation",
        download_url: `${request.protocol}://${request.host}/${FAMILY}/v1/files/${job.video.fileId}`,
      },
      base_resp: STATUS.success,
    });
  });
}

async function submitVideo(
  request: FastifyRequest,
  reply: FastifyReply,
  context: EmulatorContext,
  board: VideoJobBoard<VendorAJob["details"]>,
  taskOfFile: Map<string, string>,
) {
  const body = parseJsonBody(request.body);
  const modelId = isRecord(body) && typeof body.model === "string" ? body.model : null;
  context.requests.record({ family: FAMILY, method: request.method, path: SUBMIT_PATH, model: modelId, at: new Date().toISOString() });
  if (context.latencyMs > 0) await delay(context.latencyMs);
  if (!hasBearerKey(request)) return reply.code(401).send({ base_resp: STATUS.authenticationFailed });
  if (body === undefined) return reply.send({ base_resp: invalidParams("body is not valid JSON") });
  const parsed = videoRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return reply.send({ base_resp: invalidParams(`${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`) });
  }
  const task = parsed.data;
  const urls: MaterialUrls = {
    ...(task.first_frame_image !== undefined ? { firstFrame: task.first_frame_image } : {}),
    ...(task.last_frame_image !== undefined ? { lastFrame: task.last_frame_image } : {}),
    references: (task.subject_reference ?? []).map((subject) => ({ kind: "image" as const, url: subject.image[0]! })),
  };
  if (task.prompt === undefined && capabilityOf(urls) === "text_to_video") return reply.send({ base_resp: invalidParams("prompt is required without images") });
  const accepted = await acceptVideoRequest(context.files, FAMILY, task.model, urls, () => ({
    resolution: task.resolution.toLowerCase(),
    aspectRatio: task.aspect_ratio,
    durationSeconds: task.duration,
    container: "mp4",
    withAudio: false,
    returnLastFrame: false,
  }));
  if (accepted.outcome === "unknown_model") return reply.send({ base_resp: invalidParams(`unknown model ${task.model}`) });
  if (accepted.outcome === "refused") return reply.send({ base_resp: invalidParams(accepted.reason) });

  const fault = context.faults.take(FAMILY, task.model);
  if (fault !== undefined && !isJobFault(fault.kind)) return sendFault(fault.kind, fault.retryAfterSeconds, reply);
  const job = board.submit(
    {
      id: String(randomInt(1e14, 2 ** 48)),
      model: task.model,
      spec: {
        ...accepted.frame,
        durationSeconds: task.duration,
        container: "mp4",
        withAudio: false,
        watermark: task.aigc_watermark,
        prompt: task.prompt ?? "",
        seed: task.seed ?? null,
        returnLastFrame: false,
        materials: accepted.materials,
      },
      details: { fileId: String(randomInt(1e14, 2 ** 48)), createdAt: Math.floor(Date.now() / 1000) },
    },
    isJobFault(fault?.kind) ? fault.kind : undefined,
  );
  taskOfFile.set(job.details.fileId, job.id);
  return reply.send({ task_id: job.id, base_resp: STATUS.success });
}

function sendFault(kind: Exclude<FaultKind, JobFault>, retryAfterSeconds: number | undefined, reply: FastifyReply) {
  switch (kind) {
    case "http_500":
    case "http_429":
      return sendHttpFault(kind, retryAfterSeconds, reply, STATUS.internalError);
    case "safety":
      return reply.send({ base_resp: STATUS.inputFlagged });
    case "malformed":
      return reply.type("application/json").send('{"task_id": ');
  }
}

// Status words of this vendor. `Suspended`, for the unknown_status fault, is documented nowhere.
function queryView(job: VendorAJob) {
  const base = { task_id: job.id };
  if (job.undocumented) return { ...base, status: "Suspended", base_resp: STATUS.success };
  switch (job.phase) {
    case "queued":
      return { ...base, status: "Queueing", base_resp: STATUS.success };
    case "running":
      return { ...base, status: "Processing", base_resp: STATUS.success };
    case "succeeded":
      return { ...base, status: "Success", file_id: job.details.fileId, video_width: job.spec.width, video_height: job.spec.height, base_resp: STATUS.success };
    case "failed":
    case "canceled":
      // The reason of a failed task is the base_resp of the query itself.
      return { ...base, status: "Fail", base_resp: job.failure === "content_filtered" ? STATUS.outputBlocked : STATUS.generationFailed };
  }
}

function hasBearerKey(request: FastifyRequest): boolean {
  return /^Bearer\s+\S+/i.test(request.headers.authorization ?? "");
}
