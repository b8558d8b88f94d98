import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { FaultKind } from "../faults.js";
import { sendStoredFile } from "../serve-file.js";
import type { EmulatorContext, VendorFamily } from "../vendor-family.js";
import { registerVendorDModelList } from "./vendor-d-model-list.js";
import { sourcePicture } from "../media/video-materials.js";
import { acceptVideoRequest } from "../video-acceptance.js";
import { capabilityOf } from "../video-input-limits.js";
import { isJobFault, VideoJobBoard, type JobFault, type VideoJob } from "../video-jobs.js";
import { instanceSchema, readInstance, withoutInlineBytes } from "./vendor-d-instance.js";
import { controlNameOf, isVeoModel } from "../vendors/vendor-d-models.js";

// vendorD video: the Gemini API's Veo long-running operations (docs/providers/vendorD.md), for generation from
// text, a first image or reference images, and for edits of a video. `:predictLongRunning` answers an operation
// name; reading the name answers {done: false, metadata} until {done: true, response.generateVideoResponse |
// error}. There is no cancel. The key travels in `x-goog-api-key`, on the video's download too; refusals are
// {error: {code, message, status, details[]}}. Faults and the request log name a call by the service's neutral
// model for what its inputs ask, as tests script them.

const FAMILY = "vendorD";
const API = "/v1beta";
const PREDICT = ":predictLongRunning";
// An operation is seen running once before it can be done.
const RUNNING_PROGRESS = [50];
const DEFAULT_RETRY_AFTER_SECONDS = 1;
const METADATA_TYPE = "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningMetadata";
const RESPONSE_TYPE = "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse";

const predictSchema = z
  .object({
    instances: z.array(instanceSchema).length(1),
    parameters: z
      .object({
        // Omitted, the clip keeps the ratio of its image or video, or is 16:9 without either.
        aspectRatio: z.string().optional(),
        resolution: z.string().default("720p"),
        durationSeconds: z.number().int().default(8),
        negativePrompt: z.string().optional(),
        personGeneration: z.enum(["allow_all", "allow_adult", "dont_allow"]).optional(),
        enhancePrompt: z.boolean().optional(),
        sampleCount: z.literal(1).default(1),
      })
      .strict()
      .default({ resolution: "720p", durationSeconds: 8, sampleCount: 1 }),
  })
  .strict();

type VendorDJob = VideoJob<{ name: string; vendorModel: string }>;

const STATUS_CODES: Record<string, number> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
};

function rpcError(status: keyof typeof STATUS_CODES, message: string, details: unknown[] = []) {
  return { error: { code: STATUS_CODES[status], message, status, ...(details.length > 0 ? { details } : {}) } };
}

function sendRpcError(reply: FastifyReply, status: keyof typeof STATUS_CODES, message: string, details: unknown[] = []) {
  return reply.code(STATUS_CODES[status] ?? 500).send(rpcError(status, message, details));
}

export const vendorDFamily: VendorFamily = {
  name: FAMILY,
  registerRoutes(app, context) {
    const board = new VideoJobBoard<VendorDJob["details"]>(context.files, RUNNING_PROGRESS);
    app.setErrorHandler((error: { statusCode?: number; message?: string }, _request, reply) =>
      sendRpcError(reply, error.statusCode !== undefined && error.statusCode < 500 ? "INVALID_ARGUMENT" : "INTERNAL", error.message ?? "error"),
    );
    app.addHook("onRequest", async (request, reply) => {
      if (!request.headers["x-goog-api-key"]) {
        return sendRpcError(reply, "PERMISSION_DENIED", "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
      }
    });
    registerVendorDModelList(app);
    app.post<{ Params: { target: string } }>(`${API}/models/:target`, (request, reply) => predict(request, reply, context, board));
    app.get<{ Params: { model: string; operation: string } }>(`${API}/models/:model/operations/:operation`, (request, reply) => {
      const job = board.read(request.params.operation);
      if (job === undefined || job.details.vendorModel !== request.params.model) return sendRpcError(reply, "NOT_FOUND", "Operation not found.");
      return reply.send(operationView(job, request));
    });
    app.get<{ Params: { file: string } }>(`${API}/files/:file`, (request, reply) =>
      sendStoredFile(reply, context.files.get(request.params.file.replace(/:download$/, "")), {
        notFound: rpcError("NOT_FOUND", "File not found."),
        broken: rpcError("INTERNAL", "The file could not be read from storage."),
      }),
    );
  },
};

async function predict(
  request: FastifyRequest<{ Params: { target: string } }>,
  reply: FastifyReply,
  context: EmulatorContext,
  board: VideoJobBoard<VendorDJob["details"]>,
) {
  const { target } = request.params;
  const vendorModel = target.endsWith(PREDICT) ? target.slice(0, -PREDICT.length) : null;
  const parsed = predictSchema.safeParse(request.body);
  const urls = parsed.success ? readInstance(parsed.data.instances[0]!) : undefined;
  // What tests name this call by: the service's model for what the inputs ask.
  const controlName = vendorModel !== null && urls !== undefined && !("problem" in urls) ? controlNameOf(vendorModel, capabilityOf(urls)) : vendorModel;
  context.requests.record({ family: FAMILY, method: request.method, path: `${API}/models/${target}`, model: controlName, at: new Date().toISOString() });
  if (context.latencyMs > 0) await delay(context.latencyMs);
  if (vendorModel === null || !isVeoModel(vendorModel)) {
    return sendRpcError(reply, "NOT_FOUND", `models/${vendorModel ?? target} is not found for API version v1beta, or is not supported for predictLongRunning.`);
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return sendRpcError(reply, "INVALID_ARGUMENT", `Invalid value at '${issue?.path.join(".") ?? ""}': ${issue?.message ?? "invalid"}`);
  }
  if (urls === undefined || "problem" in urls) return sendRpcError(reply, "INVALID_ARGUMENT", urls?.problem ?? "invalid instance");
  const { instances, parameters } = parsed.data;
  const instance = instances[0]!;
  const accepted = await acceptVideoRequest(context.files, FAMILY, vendorModel, urls, (_model, materials) => ({
    resolution: parameters.resolution,
    aspectRatio: parameters.aspectRatio ?? (sourcePicture(materials) ? null : "16:9"),
    durationSeconds: parameters.durationSeconds,
    container: "mp4",
    // Veo 3.1 always makes the clip's sound.
    withAudio: true,
    returnLastFrame: false,
  }));
  if (accepted.outcome === "unknown_model") return sendRpcError(reply, "NOT_FOUND", `models/${vendorModel} is not found.`);
  if (accepted.outcome === "refused") return sendRpcError(reply, "INVALID_ARGUMENT", withoutInlineBytes(accepted.reason));

  const modelName = controlNameOf(vendorModel, accepted.task);
  const fault = context.faults.take(FAMILY, modelName);
  if (fault !== undefined && !isJobFault(fault.kind)) return sendFault(fault.kind, fault.retryAfterSeconds, reply);
  const id = randomBytes(8).toString("hex");
  const name = `models/${vendorModel}/operations/${id}`;
  board.submit(
    {
      id,
      model: modelName,
      spec: {
        ...accepted.frame,
        durationSeconds: parameters.durationSeconds,
        container: "mp4",
        withAudio: true,
        // Every Veo clip carries the vendor's mark.
        watermark: true,
        prompt: instance.prompt ?? "",
        seed: null,
        returnLastFrame: false,
        materials: accepted.materials,
      },
      details: { name, vendorModel },
    },
    isJobFault(fault?.kind) ? fault.kind : undefined,
  );
  return reply.send({ name });
}

function sendFault(kind: Exclude<FaultKind, JobFault>, retryAfterSeconds: number | undefined, reply: FastifyReply) {
  switch (kind) {
    case "http_500":
      return sendRpcError(reply, "INTERNAL", "An internal error has occurred. Please retry.");
    case "http_429":
      // The wait comes as a RetryInfo detail, not as a Retry-After header.
      return sendRpcError(reply, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).", [
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS}s` },
      ]);
    case "safety":
      return sendRpcError(reply, "INVALID_ARGUMENT", "The prompt could not be submitted: it violates the usage guidelines.", [
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "PROMPT_BLOCKED", domain: "vendord.example" },
      ]);
    case "malformed":
      return reply.code(200).type("application/json").send('{"name": "models/');
  }
}

function operationView(job: VendorDJob, request: FastifyRequest) {
  const metadata = {
    "@type": METADATA_TYPE,
    createTime: job.createdAt.toISOString(),
    updateTime: job.updatedAt.toISOString(),
    progressPercent: job.progress,
  };
  const base = { name: job.details.name, metadata };
  // The unknown_status fault: done, yet with neither a response nor an error, which the reference never shows.
  if (job.undocumented) return { ...base, done: true };
  switch (job.phase) {
    case "queued":
    case "running":
      return { ...base, done: false };
    case "canceled":
    case "failed":
      if (job.failure === "content_filtered") {
        return {
          ...base,
          done: true,
          response: {
            "@type": RESPONSE_TYPE,
            generateVideoResponse: {
              raiMediaFilteredCount: 1,
              raiMediaFilteredReasons: ["The generated video was filtered by the responsible AI checks."],
            },
          },
        };
      }
      return { ...base, done: true, error: { code: 13, message: "The video could not be generated.", status: "INTERNAL" } };
    case "succeeded": {
      const uri = job.video ? `${request.protocol}://${request.host}/${FAMILY}${API}/files/${job.video.fileId}:download?alt=media` : undefined;
      return {
        ...base,
        done: true,
        response: { "@type": RESPONSE_TYPE, generateVideoResponse: { generatedSamples: [{ video: { uri } }] } },
      };
    }
  }
}
