import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { StoredFile } from "../file-store.js";
import type { TriggeredFault } from "../faults.js";
import { findImageModel, imageAskProblem, randomSeed } from "../media/image-limits.js";
import { renderDerivedSet } from "../media/image-derive.js";
import { renderImageSet } from "../media/image-render.js";
import { storePicture } from "../media/stored-images.js";
import { sendStoredFile } from "../serve-file.js";
import type { EmulatorContext } from "../vendor-family.js";
import { acceptRawBodies, isRecord, parseJsonBody } from "./raw-json-body.js";
import { image2imageInputSchema, readSynthesisInputs, type Image2ImageInput } from "./vendor-c-image-inputs.js";

// vendorC images: an asynchronous job API (docs/providers/vendorC-image.md). A POST with `X-DashScope-Async: enable`
// answers a task id in status PENDING; the task goes RUNNING, then SUCCEEDED | FAILED | CANCELED (UNKNOWN once
// it has expired). There is no progress figure. Errors are `{request_id, code, message}`. These routes sit
// under /vendorC beside the family's video routes, in a scope of their own (body parsing, auth hook). The
// image2image service (image-to-image, edits: images the model downloads) runs its jobs the same way; each
// service knows only its own jobs.

const FAMILY = "vendorC";
const SERVICE = "/api/v1/services/aigc/text2image";
const IMAGE2IMAGE_SERVICE = "/api/v1/services/aigc/image2image";
const DEFAULT_RETRY_AFTER_SECONDS = 1;
// A status the protocol does not document, for the unknown_status fault.
const UNDOCUMENTED_STATUS = "SUSPENDED";

type TaskStatus = "PENDING" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELED" | typeof UNDOCUMENTED_STATUS;

interface ImageJob {
  id: string;
  service: string;
  model: string;
  status: TaskStatus;
  submitTime: string;
  endTime?: string;
  count: number;
  files: StoredFile[];
  failure?: { code: string; message: string };
  // Scripted by the malformed fault: every status query of this job answers a truncated body.
  garbled: boolean;
}

const synthesisSchema = z
  .object({
    model: z.string().min(1),
    input: z.object({ prompt: z.string().trim().min(1), negative_prompt: z.string().min(1).optional() }).strict(),
    parameters: z
      .object({
        size: z.string().regex(/^\d+\*\d+$/, "size must read width*height"),
        n: z.number().int().min(1),
        seed: z.number().int().min(0).max(2_147_483_647).optional(),
        prompt_extend: z.boolean().optional(),
        reasoning: z.boolean().optional(),
        sequential: z.boolean().default(false),
      })
      .strict(),
  })
  .strict();

const image2imageSchema = synthesisSchema.extend({ input: image2imageInputSchema });

export function registerVendorCImageRoutes(app: FastifyInstance, context: EmulatorContext): void {
  // Result files are fetched without the key, like the signed object-storage URLs the vendor hands out.
  app.get<{ Params: { id: string } }>(`${SERVICE}/files/:id`, (request, reply) =>
    sendStoredFile(reply, context.files.get(request.params.id), {
      notFound: { request_id: randomUUID(), code: "NoSuchKey", message: "The specified key does not exist." },
      broken: { request_id: randomUUID(), code: "InternalError", message: "Object storage is temporarily unavailable." },
    }),
  );
  void app.register(async (scope) => {
    const jobs = new Map<string, ImageJob>();
    acceptRawBodies(scope);
    scope.setErrorHandler((error, _request, reply) => sendError(reply, 500, "InternalError", (error as Error).message));
    scope.addHook("onRequest", async (request, reply) => {
      if (!/^Bearer\s+\S+/i.test(request.headers.authorization ?? "")) {
        return sendError(reply, 401, "InvalidApiKey", "Invalid API-key provided.");
      }
    });

    for (const service of [SERVICE, IMAGE2IMAGE_SERVICE]) {
      const jobOf = (id: string) => (jobs.get(id)?.service === service ? jobs.get(id) : undefined);
      scope.post(`${service}/image-synthesis`, (request, reply) => submitSynthesis(request, reply, context, jobs, service));
      scope.get<{ Params: { id: string } }>(`${service}/tasks/:id`, (request, reply) => {
        const job = jobOf(request.params.id);
        if (job?.garbled) return reply.type("application/json").send(`{"request_id": "${randomUUID()}", "output": {"task_st`);
        return reply.send({ request_id: randomUUID(), ...describeJob(job, request.params.id, request) });
      });
      scope.post<{ Params: { id: string } }>(`${service}/tasks/:id/cancel`, (request, reply) => {
        const job = jobOf(request.params.id);
        recordCall(context, request, job?.model ?? null);
        if (job?.status !== "PENDING") {
          const message = "Failed to cancel the task, please confirm if the task is in PENDING status.";
          return sendError(reply, 400, "UnsupportedOperation", message);
        }
        job.status = "CANCELED";
        job.endTime = vendorTime(new Date());
        return reply.send({ request_id: randomUUID() });
      });
    }
  });
}

async function submitSynthesis(
  request: FastifyRequest,
  reply: FastifyReply,
  context: EmulatorContext,
  jobs: Map<string, ImageJob>,
  service: string,
) {
  const body = parseJsonBody(request.body);
  const modelId = isRecord(body) && typeof body.model === "string" ? body.model : null;
  recordCall(context, request, modelId);
  if (context.latencyMs > 0) await delay(context.latencyMs);

  if (request.headers["x-dashscope-async"] !== "enable") {
    return sendError(reply, 403, "AccessDenied", "current user api does not support synchronous calls; send X-DashScope-Async: enable");
  }
  if (body === undefined) return sendError(reply, 400, "InvalidParameter", "The request body is not valid JSON.");
  const parsed = service === IMAGE2IMAGE_SERVICE ? image2imageSchema.safeParse(body) : synthesisSchema.safeParse(body);
  if (!parsed.success) return sendError(reply, 400, "InvalidParameter", describeIssue(parsed.error));
  const model = findImageModel(FAMILY, parsed.data.model);
  if (model === undefined) return sendError(reply, 400, "InvalidParameter", `Model not exist: ${parsed.data.model}`);
  const { input, parameters } = parsed.data;
  const [width, height] = parameters.size.split("*").map(Number) as [number, number];
  // The image2image schema has parsed this input: it is an image2image one.
  const derivation = service === IMAGE2IMAGE_SERVICE ? await readSynthesisInputs(input as Image2ImageInput) : null;
  if (typeof derivation === "string") return sendError(reply, 400, "InvalidParameter", derivation);
  const problem = imageAskProblem(model, {
    count: parameters.n,
    size: { width, height },
    sequence: parameters.sequential,
    palette: false,
    seed: parameters.seed !== undefined,
    negativePrompt: input.negative_prompt !== undefined,
    ...(derivation ? { source: derivation.source, inputImages: derivation.inputs.length, editRegions: derivation.regions.length } : {}),
  });
  if (problem) return sendError(reply, 400, "InvalidParameter", problem);

  const fault = context.faults.take(FAMILY, model.id);
  switch (fault?.kind) {
    case "http_500":
      return sendError(reply, 500, "InternalError", "An internal error has occurred, please try again later.");
    case "http_429":
      reply.header("retry-after", String(fault.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS));
      return sendError(reply, 429, "Throttling.RateQuota", "Requests rate limit exceeded, please try again later.");
    case "safety":
      return sendError(reply, 400, "DataInspectionFailed", "Input data may contain inappropriate content.");
  }

  const job: ImageJob = {
    id: randomUUID(),
    service,
    model: model.id,
    status: "PENDING",
    submitTime: vendorTime(new Date()),
    count: parameters.n,
    files: [],
    garbled: fault?.kind === "malformed",
  };
  jobs.set(job.id, job);
  const picture = {
    width,
    height,
    prompt: input.prompt,
    count: parameters.n,
    relationship: parameters.sequential ? ("sequence" as const) : ("independent" as const),
  };
  void runJob(job, fault, context, () =>
    derivation ? renderDerivedSet({ ...picture, ...derivation }) : renderImageSet({ ...picture, seed: parameters.seed ?? randomSeed() }),
  );
  return reply.send({ request_id: randomUUID(), output: { task_id: job.id, task_status: job.status } });
}

// The vendor's scheduler: the job leaves PENDING on the next turn and renders, unless a fault decides otherwise.
async function runJob(job: ImageJob, fault: TriggeredFault | undefined, context: EmulatorContext, render: () => Promise<Buffer[]>) {
  await delay(0);
  if (job.status !== "PENDING") return;
  job.status = "RUNNING";
  switch (fault?.kind) {
    case "hang":
      return;
    case "unknown_status":
      job.status = UNDOCUMENTED_STATUS;
      return;
    case "content_filtered":
      return finish(job, "FAILED", { code: "DataInspectionFailed", message: "Output data may contain inappropriate content." });
  }
  try {
    const pictures = await render();
    job.files = await Promise.all(pictures.map((picture) => storePicture(context, picture, fault?.kind === "bad_download")));
    if (job.status === "RUNNING") finish(job, "SUCCEEDED");
  } catch (error) {
    if (job.status === "RUNNING") {
      finish(job, "FAILED", { code: "InternalError", message: `rendering failed: ${(error as Error).message}` });
    }
  }
}

function finish(job: ImageJob, status: "SUCCEEDED" | "FAILED", failure?: ImageJob["failure"]) {
  job.status = status;
  job.endTime = vendorTime(new Date());
  if (failure) job.failure = failure;
}

function describeJob(job: ImageJob | undefined, id: string, request: FastifyRequest) {
  if (job === undefined) return { output: { task_id: id, task_status: "UNKNOWN" } };
  const succeeded = job.status === "SUCCEEDED";
  return {
    output: {
      task_id: job.id,
      task_status: job.status,
      submit_time: job.submitTime,
      ...(job.endTime ? { end_time: job.endTime } : {}),
      ...(succeeded
        ? { results: job.files.map((file) => ({ url: `${request.protocol}://${request.host}/${FAMILY}${SERVICE}/files/${file.fileId}` })) }
        : {}),
      ...(job.failure ?? {}),
      ...(succeeded || job.status === "FAILED"
        ? { task_metrics: { TOTAL: job.count, SUCCEEDED: succeeded ? job.count : 0, FAILED: succeeded ? 0 : job.count } }
        : {}),
    },
    ...(succeeded ? { usage: { image_count: job.count } } : {}),
  };
}

// Times read like "2025-01-01 12:00:00.000", in UTC, as on the family's video jobs.
function vendorTime(date: Date): string {
  return date.toISOString().replace("T", " ").replace("Z", "");
}

function recordCall(context: EmulatorContext, request: FastifyRequest, model: string | null) {
  const path = request.url.split("?")[0] ?? request.url;
  context.requests.record({ family: FAMILY, method: request.method, path, model, at: new Date().toISOString() });
}

function sendError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.code(status).send({ request_id: randomUUID(), code, message });
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue === undefined ? "The request is invalid." : `${issue.path.join(".") || "body"}: ${issue.message}`;
}
