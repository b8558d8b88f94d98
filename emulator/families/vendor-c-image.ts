import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { StoredFile } from "../file-store.js";
import type { TriggeredFault } from "../faults.js";
import { renderDerivedSet } from "../media/image-derive.js";
import { renderImageSet } from "../media/image-render.js";
import { storePicture } from "../media/stored-images.js";
import { sendStoredFile } from "../serve-file.js";
import type { EmulatorContext } from "../vendor-family.js";
import { acceptRawBodies, isRecord, parseJsonBody } from "./raw-json-body.js";
import { generationSchema, readInputs, readTask } from "./vendor-c-image-inputs.js";
import { controlNameOf, WAN_IMAGE_MODELS } from "./vendor-c-image-models.js";

// vendorC images: Model Studio's Wan 2.7 image generation and editing (docs/providers/vendorC-image.md; reference
// copy docs/providers/reference/vendorC-image-generation.json). A POST with `X-DashScope-Async: enable` answers a
// task id in status PENDING; the task, read at the family's /api/v1/tasks/{id} (vendor-c.ts asks
// `imageTaskAnswer` first), goes RUNNING, then SUCCEEDED with the images in `output.choices` | FAILED |
// CANCELED (UNKNOWN once it has expired). There is no progress figure. Errors are `{request_id, code, message}`.
// These routes sit under /vendorC beside the family's video routes, in a scope of their own (body parsing, auth).

const FAMILY = "vendorC";
const GENERATION_PATH = "/api/v1/services/aigc/image-generation/generation";
const FILES_PATH = "/api/v1/services/aigc/image-generation/files";
const DEFAULT_RETRY_AFTER_SECONDS = 1;
// A status the protocol does not document, for the unknown_status fault.
const UNDOCUMENTED_STATUS = "SUSPENDED";

type TaskStatus = "PENDING" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELED" | typeof UNDOCUMENTED_STATUS;

interface ImageTask {
  id: string;
  model: string;
  status: TaskStatus;
  submitTime: string;
  endTime?: string;
  count: number;
  size: string;
  files: StoredFile[];
  failure?: { code: string; message: string };
  // Scripted by the malformed fault: every status query of this task answers a truncated body.
  garbled: boolean;
}

// The answer to a status read of an image task: JSON, or (the malformed fault) a cut-off text; undefined for a
// task id that is not an image task's.
export type ImageTaskAnswer = ((request: FastifyRequest, taskId: string) => object | string | undefined);

export function registerVendorCImageRoutes(app: FastifyInstance, context: EmulatorContext): ImageTaskAnswer {
  const tasks = new Map<string, ImageTask>();
  // Result files are fetched without the key, like the signed object-storage URLs the vendor hands out.
  app.get<{ Params: { id: string } }>(`${FILES_PATH}/:id`, (request, reply) =>
    sendStoredFile(reply, context.files.get(request.params.id), {
      notFound: { request_id: randomUUID(), code: "NoSuchKey", message: "The specified key does not exist." },
      broken: { request_id: randomUUID(), code: "InternalError", message: "Object storage is temporarily unavailable." },
    }),
  );
  void app.register(async (scope) => {
    acceptRawBodies(scope);
    scope.setErrorHandler((error, _request, reply) => sendError(reply, 500, "InternalError", (error as Error).message));
    scope.addHook("onRequest", async (request, reply) => {
      if (!/^Bearer\s+\S+/i.test(request.headers.authorization ?? "")) {
        return sendError(reply, 401, "InvalidApiKey", "Invalid API-key provided.");
      }
    });
    scope.post(GENERATION_PATH, (request, reply) => submitGeneration(request, reply, context, tasks));
    scope.post<{ Params: { id: string } }>("/api/v1/tasks/:id/cancel", (request, reply) => {
      const task = tasks.get(request.params.id);
      recordCall(context, request, task?.model ?? null);
      if (task?.status !== "PENDING") {
        return sendError(reply, 400, "UnsupportedOperation", "Failed to cancel the task, please confirm if the task is in PENDING status.");
      }
      task.status = "CANCELED";
      task.endTime = vendorTime(new Date());
      return reply.send({ request_id: randomUUID() });
    });
  });
  return (request, taskId) => {
    const task = tasks.get(taskId);
    if (task === undefined) return undefined;
    if (task.garbled) return `{"request_id": "${randomUUID()}", "output": {"task_st`;
    return { request_id: randomUUID(), ...describeTask(task, request) };
  };
}

async function submitGeneration(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext, tasks: Map<string, ImageTask>) {
  const body = parseJsonBody(request.body);
  const modelId = isRecord(body) && typeof body.model === "string" ? body.model : null;
  recordCall(context, request, modelId === null ? null : controlNameOf(modelId));
  if (context.latencyMs > 0) await delay(context.latencyMs);

  if (request.headers["x-dashscope-async"] !== "enable") {
    return sendError(reply, 403, "AccessDenied", "current user api does not support synchronous calls; send X-DashScope-Async: enable");
  }
  if (body === undefined) return sendError(reply, 400, "InvalidParameter", "The request body is not valid JSON.");
  const parsed = generationSchema.safeParse(body);
  if (!parsed.success) return sendError(reply, 400, "InvalidParameter", describeIssue(parsed.error));
  const model = WAN_IMAGE_MODELS[parsed.data.model];
  if (model === undefined) return sendError(reply, 404, "ModelNotFound", `Model not exist: ${parsed.data.model}`);
  const read = readTask(model, parsed.data);
  if (typeof read === "string") return sendError(reply, 400, "InvalidParameter", read);
  const { parameters } = parsed.data;
  const derivation = read.imageUrls.length > 0 ? await readInputs(parsed.data.model, read.imageUrls, parameters.bbox_list) : null;
  if (typeof derivation === "string") return sendError(reply, 400, "InvalidParameter", derivation);

  const fault = context.faults.take(FAMILY, model.controlName);
  switch (fault?.kind) {
    case "http_500":
      return sendError(reply, 500, "InternalError", "An internal error has occurred, please try again later.");
    case "http_429":
      reply.header("retry-after", String(fault.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS));
      return sendError(reply, 429, "Throttling.RateQuota", "Requests rate limit exceeded, please try again later.");
    case "safety":
      return sendError(reply, 400, "DataInspectionFailed", "Input data may contain inappropriate content.");
  }

  const task: ImageTask = {
    id: randomUUID(),
    model: model.controlName,
    status: "PENDING",
    submitTime: vendorTime(new Date()),
    count: read.count,
    size: `${read.width}*${read.height}`,
    files: [],
    garbled: fault?.kind === "malformed",
  };
  tasks.set(task.id, task);
  const picture = {
    width: read.width,
    height: read.height,
    prompt: read.prompt,
    count: read.count,
    relationship: read.sequential ? ("sequence" as const) : ("independent" as const),
  };
  void runTask(task, fault, context, () =>
    derivation ? renderDerivedSet({ ...picture, ...derivation }) : renderImageSet({ ...picture, seed: parameters.seed ?? randomSeed() }),
  );
  return reply.send({ request_id: randomUUID(), output: { task_id: task.id, task_status: task.status } });
}

// A seed the caller did not fix: every request then gets pictures of its own.
function randomSeed(): number {
  return Math.floor(Math.random() * 2_147_483_647);
}

// The vendor's scheduler: the task leaves PENDING on the next turn and renders, unless a fault decides otherwise.
async function runTask(task: ImageTask, fault: TriggeredFault | undefined, context: EmulatorContext, render: () => Promise<Buffer[]>) {
  await delay(0);
  if (task.status !== "PENDING") return;
  task.status = "RUNNING";
  switch (fault?.kind) {
    case "hang":
      return;
    case "unknown_status":
      task.status = UNDOCUMENTED_STATUS;
      return;
    case "content_filtered":
      return finish(task, "FAILED", { code: "DataInspectionFailed", message: "Output data may contain inappropriate content." });
  }
  try {
    const pictures = await render();
    task.files = await Promise.all(pictures.map((picture) => storePicture(context, picture, fault?.kind === "bad_download")));
    if (task.status === "RUNNING") finish(task, "SUCCEEDED");
  } catch (error) {
    if (task.status === "RUNNING") finish(task, "FAILED", { code: "InternalError", message: `rendering failed: ${(error as Error).message}` });
  }
}

function finish(task: ImageTask, status: "SUCCEEDED" | "FAILED", failure?: ImageTask["failure"]) {
  task.status = status;
  task.endTime = vendorTime(new Date());
  if (failure) task.failure = failure;
}

function describeTask(task: ImageTask, request: FastifyRequest) {
  const succeeded = task.status === "SUCCEEDED";
  const fileUrl = (file: StoredFile) => `${request.protocol}://${request.host}/${FAMILY}${FILES_PATH}/${file.fileId}`;
  return {
    output: {
      task_id: task.id,
      task_status: task.status,
      submit_time: task.submitTime,
      ...(task.endTime ? { end_time: task.endTime } : {}),
      ...(succeeded
        ? {
            finished: true,
            choices: [{ finish_reason: "stop", message: { role: "assistant", content: task.files.map((file) => ({ type: "image", image: fileUrl(file) })) } }],
          }
        : {}),
      ...(task.failure ?? {}),
    },
    ...(succeeded ? { usage: { image_count: task.count, size: task.size } } : {}),
  };
}

// Times read like "2025-01-01 12:00:00.000", in UTC, as on the family's video tasks.
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
