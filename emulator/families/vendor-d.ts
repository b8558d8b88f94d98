import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { FaultKind } from "../faults.js";
import { sendStoredFile } from "../serve-file.js";
import type { EmulatorContext, VendorFamily } from "../vendor-family.js";
import { sourcePicture } from "../media/video-materials.js";
import { acceptVideoRequest } from "../video-acceptance.js";
import { isJobFault, VideoJobBoard, type JobFault, type VideoJob } from "../video-jobs.js";
import { instanceSchema, readInstance } from "./vendor-d-instance.js";

// vendorD video: long-running operations in the style of a cloud AI platform (docs/providers/vendorD.md), for
// generation from text, a first image or reference images, and for edits of a video.
// `:predictLongRunning` answers an operation name; reading the name answers {done: false, metadata} until
// {done: true, response | error}; `:cancel` ends an operation with a CANCELLED error. The key travels in
// `x-goog-api-key`; refusals are {error: {code, message, status, details[]}}.

const FAMILY = "vendorD";
const API = "/v1beta";
const PREDICT = ":predictLongRunning";
const CANCEL = ":cancel";
// An operation is seen running once before it can be done.
const RUNNING_PROGRESS = [50];
const DEFAULT_RETRY_AFTER_SECONDS = 1;
const TYPES = "type.googleapis.com/vendorD.v1beta";

const predictSchema = z
  .object({
    instances: z.array(instanceSchema).length(1),
    parameters: z
      .object({
        // Omitted, the clip keeps the ratio of its image or video, or is 16:9 without either.
        aspectRatio: z.string().optional(),
        resolution: z.string().default("720p"),
        durationSeconds: z.number().int().default(5),
        generateAudio: z.boolean().default(true),
        sampleCount: z.literal(1).default(1),
      })
      .strict(),
  })
  .strict();

type VendorDJob = VideoJob<{ name: string }>;

const STATUS_CODES: Record<string, number> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
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
      if (request.url.startsWith(`/${FAMILY}${API}/files/`)) return;
      if (!request.headers["x-goog-api-key"]) {
        return sendRpcError(reply, "UNAUTHENTICATED", "API key not valid. Please pass a valid API key.");
      }
    });
    app.post<{ Params: { target: string } }>(`${API}/models/:target`, (request, reply) => predict(request, reply, context, board));
    app.get<{ Params: { model: string; operation: string } }>(`${API}/models/:model/operations/:operation`, (request, reply) => {
      const job = board.read(request.params.operation);
      if (job === undefined || job.model !== request.params.model) return sendRpcError(reply, "NOT_FOUND", "Operation not found.");
      return reply.send(operationView(job, request));
    });
    app.post<{ Params: { model: string; operation: string } }>(`${API}/models/:model/operations/:operation`, (request, reply) => {
      const { operation } = request.params;
      if (!operation.endsWith(CANCEL)) return sendRpcError(reply, "NOT_FOUND", `Method not found: ${operation}`);
      const outcome = board.cancel(operation.slice(0, -CANCEL.length));
      if (outcome === undefined) return sendRpcError(reply, "NOT_FOUND", "Operation not found.");
      // Cancelling a finished operation is accepted and changes nothing, as the platform documents.
      return reply.send({});
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
  const modelId = target.endsWith(PREDICT) ? target.slice(0, -PREDICT.length) : null;
  context.requests.record({ family: FAMILY, method: request.method, path: `${API}/models/${target}`, model: modelId, at: new Date().toISOString() });
  if (context.latencyMs > 0) await delay(context.latencyMs);
  const notFound = () => sendRpcError(reply, "NOT_FOUND", `models/${target} is not found or does not support ${PREDICT}.`);
  if (modelId === null) return notFound();
  const parsed = predictSchema.safeParse(request.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return sendRpcError(reply, "INVALID_ARGUMENT", `Invalid value at '${issue?.path.join(".") ?? ""}': ${issue?.message ?? "invalid"}`);
  }
  const { instances, parameters } = parsed.data;
  const instance = instances[0]!;
  const urls = readInstance(instance);
  if ("problem" in urls) return sendRpcError(reply, "INVALID_ARGUMENT", urls.problem);
  const accepted = await acceptVideoRequest(context.files, FAMILY, modelId, urls, (_model, materials) => ({
    resolution: parameters.resolution,
    aspectRatio: parameters.aspectRatio ?? (sourcePicture(materials) ? null : "16:9"),
    durationSeconds: parameters.durationSeconds,
    container: "mp4",
    withAudio: parameters.generateAudio,
    returnLastFrame: false,
  }));
  if (accepted.outcome === "unknown_model") return notFound();
  if (accepted.outcome === "refused") return sendRpcError(reply, "INVALID_ARGUMENT", accepted.reason);

  const fault = context.faults.take(FAMILY, modelId);
  if (fault !== undefined && !isJobFault(fault.kind)) return sendFault(fault.kind, fault.retryAfterSeconds, reply);
  const id = randomBytes(8).toString("hex");
  board.submit(
    {
      id,
      model: modelId,
      spec: {
        ...accepted.frame,
        durationSeconds: parameters.durationSeconds,
        container: "mp4",
        withAudio: parameters.generateAudio,
        // Every vendorD clip carries the vendor's mark.
        watermark: true,
        prompt: instance.prompt ?? "",
        seed: null,
        returnLastFrame: false,
        materials: accepted.materials,
      },
      details: { name: `models/${modelId}/operations/${id}` },
    },
    isJobFault(fault?.kind) ? fault.kind : undefined,
  );
  return reply.send({ name: `models/${modelId}/operations/${id}` });
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
    "@type": `${TYPES}.GenerateVideoMetadata`,
    createTime: job.createdAt.toISOString(),
    updateTime: job.updatedAt.toISOString(),
    progressPercent: job.progress,
  };
  const base = { name: job.details.name, metadata };
  // The unknown_status fault: done, yet with neither a response nor an error, which the platform never documents.
  if (job.undocumented) return { ...base, done: true };
  switch (job.phase) {
    case "queued":
    case "running":
      return { ...base, done: false };
    case "canceled":
      return { ...base, done: true, error: { code: 1, message: "Operation was cancelled.", status: "CANCELLED" } };
    case "failed":
      if (job.failure === "content_filtered") {
        return {
          ...base,
          done: true,
          response: {
            "@type": `${TYPES}.GenerateVideoResponse`,
            raiMediaFilteredCount: 1,
            raiMediaFilteredReasons: ["The generated video was filtered by the responsible AI checks."],
            generatedSamples: [],
          },
        };
      }
      return { ...base, done: true, error: { code: 13, message: "The video could not be generated.", status: "INTERNAL" } };
    case "succeeded": {
      const uri = job.video ? `${request.protocol}://${request.host}/${FAMILY}${API}/files/${job.video.fileId}:download?alt=media` : undefined;
      return {
        ...base,
        done: true,
        response: { "@type": `${TYPES}.GenerateVideoResponse`, generatedSamples: [{ video: { uri, mimeType: "video/mp4" } }] },
      };
    }
  }
}
