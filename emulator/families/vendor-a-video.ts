import { randomInt } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FaultKind } from "../faults.js";
import { fetchMaterials, MaterialError, type VideoMaterials } from "../media/video-materials.js";
import type { EmulatorContext } from "../vendor-family.js";
import { isJobFault, VideoJobBoard, type JobFault, type VideoJob } from "../video-jobs.js";
import { isRecord, parseJsonBody } from "./raw-json-body.js";
import { fileUrl, invalidParams, sendHttpFault, vendorAStatus } from "./vendor-a-calls.js";
import { controlNameOf, VIDEO_MODEL } from "./vendor-a-models.js";
import { frameOf, materialsProblem, readContent, videoRequestSchema, type VideoRequest } from "./vendor-a-video-content.js";

// vendorA video: Video Generation V2 (docs/providers/vendorA.md, "Video"; reference copy
// docs/providers/reference/vendorA-video-generation-v2.json). `POST /v2/video_generation` takes MiniMax-H3's task
// (its text, frames or references by URL with their roles, resolution, duration and ratio) and answers a task id;
// `GET /v2/query/video_generation/{task_id}` answers `{task}`, queued → running → succeeded (with the video's URL
// in content.url) | failed (with error.code and message). Refusals are the family's base_resp, mostly under HTTP
// 200. H3 renders with sound.

const FAMILY = "vendorA";
const SUBMIT_PATH = "/v2/video_generation";
// A task is seen running once before it can succeed.
const RUNNING_PROGRESS = [50];
// A status outside the vendor's vocabulary, for the unknown_status fault.
const UNDOCUMENTED_STATUS = "suspended";

const STATUS = vendorAStatus({ internalError: "video engine unavailable", inputFlagged: "prompt flagged by safety review", outputBlocked: "generated video blocked" });

interface TaskDetails {
  resolution: VideoRequest["resolution"];
  ratio: string;
  inputSeconds: number;
  inputImageCount: number;
}

type H3Job = VideoJob<TaskDetails>;

export function registerVendorAVideoRoutes(app: FastifyInstance, context: EmulatorContext): void {
  const board = new VideoJobBoard<TaskDetails>(context.files, RUNNING_PROGRESS);
  app.post(SUBMIT_PATH, (request, reply) => submitVideo(request, reply, context, board));
  app.get<{ Params: { task_id: string } }>("/v2/query/video_generation/:task_id", (request, reply) => {
    if (!hasBearerKey(request)) return reply.code(401).send({ base_resp: STATUS.authenticationFailed });
    const job = board.read(request.params.task_id);
    if (job === undefined) return reply.send({ base_resp: invalidParams(`task ${request.params.task_id} not found`) });
    return reply.send({ task: taskView(job, request) });
  });
}

async function submitVideo(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext, board: VideoJobBoard<TaskDetails>) {
  const body = parseJsonBody(request.body);
  const modelId = isRecord(body) && typeof body.model === "string" ? controlNameOf(body.model) : null;
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
  if (task.model !== VIDEO_MODEL) return reply.send({ base_resp: invalidParams(`unknown model ${task.model}`) });
  const content = readContent(task.content);
  if (typeof content === "string") return reply.send({ base_resp: invalidParams(content) });
  const ratio = task.ratio ?? (content.textOnly ? undefined : "adaptive");
  if (ratio === undefined || (content.textOnly && ratio === "adaptive")) {
    return reply.send({ base_resp: invalidParams("text-only generation requires a non-adaptive ratio") });
  }
  let materials: VideoMaterials;
  try {
    materials = await fetchMaterials(context.files, content.urls);
  } catch (error) {
    if (error instanceof MaterialError) return reply.send({ base_resp: invalidParams(error.message) });
    throw error;
  }
  const problem = materialsProblem(materials);
  if (problem !== null) return reply.send({ base_resp: invalidParams(problem) });
  const frame = frameOf(task.resolution, ratio, materials);
  if (frame === undefined) return reply.send({ base_resp: invalidParams("an adaptive ratio needs a picture to follow") });

  const fault = context.faults.take(FAMILY, controlNameOf(task.model));
  if (fault !== undefined && !isJobFault(fault.kind)) return sendFault(fault.kind, fault.retryAfterSeconds, reply);
  const inputSeconds = materials.references.filter((r) => r.kind === "video").reduce((sum, r) => sum + r.media.durationSeconds, 0);
  const job = board.submit(
    {
      id: String(randomInt(1e14, 2 ** 48)),
      model: task.model,
      spec: {
        ...frame,
        durationSeconds: task.duration,
        container: "mp4",
        withAudio: true,
        watermark: false,
        prompt: content.prompt,
        seed: null,
        returnLastFrame: false,
        materials,
      },
      details: { resolution: task.resolution, ratio, inputSeconds: Math.ceil(inputSeconds), inputImageCount: content.imageCount },
    },
    isJobFault(fault?.kind) ? fault.kind : undefined,
  );
  return reply.send({ task_id: job.id });
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

const STATUS_OF_PHASE = { queued: "queued", running: "running", succeeded: "succeeded", failed: "failed", canceled: "cancelled" } as const;

function taskView(job: H3Job, request: FastifyRequest) {
  const { details } = job;
  const status = job.undocumented ? UNDOCUMENTED_STATUS : STATUS_OF_PHASE[job.phase];
  const seconds = job.spec.durationSeconds;
  return {
    id: job.id,
    model: job.model,
    status,
    created_at: Math.floor(job.createdAt.getTime() / 1000),
    updated_at: Math.floor(job.updatedAt.getTime() / 1000),
    resolution: details.resolution,
    duration: seconds,
    ratio: details.ratio,
    ...(status === "succeeded" && job.video
      ? {
          content: { url: fileUrl(request, job.video.fileId) },
          usage: { total_seconds: seconds + details.inputSeconds, input_seconds: details.inputSeconds, output_seconds: seconds, input_image_count: details.inputImageCount },
        }
      : {}),
    ...(status === "failed"
      ? {
          error:
            job.failure === "content_filtered"
              ? { code: String(STATUS.outputBlocked.status_code), message: STATUS.outputBlocked.status_msg }
              : { code: String(STATUS.internalError.status_code), message: "internal error: video generation failed" },
        }
      : {}),
  };
}

function hasBearerKey(request: FastifyRequest): boolean {
  return /^Bearer\s+\S+/i.test(request.headers.authorization ?? "");
}
