import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { StoredFile } from "../file-store.js";
import type { TriggeredFault } from "../faults.js";
import { renderDerivedImage } from "../media/image-derive.js";
import { findImageModel, imageAskProblem, randomSeed } from "../media/image-limits.js";
import { renderImage } from "../media/image-render.js";
import { PNG_CONTENT_TYPE, storePicture } from "../media/stored-images.js";
import { sendStoredFile } from "../serve-file.js";
import type { EmulatorContext, VendorFamily } from "../vendor-family.js";
import { acceptRawBodies, isRecord, parseJsonBody } from "./raw-json-body.js";
import { imageInputFields, readImageInputs } from "./vendor-f-image-inputs.js";
import { registerVendorFVisionRoutes } from "./vendor-f-vision.js";

// vendorF images: a task API (docs/providers/vendorF.md). A POST creates a task and answers 202 at once; the
// task moves queued → in_progress → completed | failed | canceled and reports `progress_percent` as each image
// of the set is rendered; the images are then downloadable files. Errors are `{error_type, detail}`. A task with
// a `mode` derives its images from input images the model downloads (image-to-image, edits).

const FAMILY = "vendorF";
const POLL_AFTER_MS = 300;
const DEFAULT_RETRY_AFTER_SECONDS = 1;
// Where a task stuck by the hang fault stops moving.
const STALLED_PERCENT = 37;
// A state the protocol does not document, for the unknown_status fault.
const UNDOCUMENTED_STATE = "paused";

type TaskState = "queued" | "in_progress" | "completed" | "failed" | "canceled" | typeof UNDOCUMENTED_STATE;

interface ImageTask {
  id: string;
  model: string;
  state: TaskState;
  progress: number;
  seed: number;
  images: { file: StoredFile; width: number; height: number }[];
  error?: { type: string; detail: string };
}

const createTaskSchema = z
  .object({
    model: z.string().min(1),
    input: z
      .object({
        prompt: z.string().trim().min(1),
        num_images: z.number().int().min(1),
        image_size: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }).strict(),
        seed: z.number().int().min(0).max(2_147_483_647).optional(),
        negative_prompt: z.string().min(1).optional(),
        enable_prompt_expansion: z.boolean().optional(),
        reasoning: z.boolean().optional(),
        sequential: z.boolean().default(false),
        palette: z
          .array(z.object({ color: z.string().regex(/^#[0-9A-Fa-f]{6}$/), weight: z.number().gt(0).max(1) }).strict())
          .min(3)
          .max(10)
          .optional(),
        ...imageInputFields,
      })
      .strict(),
  })
  .strict();

export const vendorFFamily: VendorFamily = {
  name: FAMILY,
  registerRoutes(app, context) {
    const tasks = new Map<string, ImageTask>();
    acceptRawBodies(app);
    app.setErrorHandler((error, _request, reply) => sendError(reply, 500, "internal_error", (error as Error).message));
    void app.register(async (api) => {
      api.addHook("onRequest", async (request, reply) => {
        if (!/^Key\s+\S+/.test(request.headers.authorization ?? "")) {
          return sendError(reply, 401, "unauthorized", "Missing or invalid Authorization header; expected 'Key <api key>'.");
        }
      });
      api.post("/v2/image-tasks", (request, reply) => createTask(request, reply, context, tasks));
      api.get<{ Params: { id: string } }>("/v2/image-tasks/:id", (request, reply) => {
        const task = tasks.get(request.params.id);
        if (task === undefined) return sendError(reply, 404, "not_found", `No image task ${request.params.id}.`);
        return reply.send(describeTask(task, request));
      });
      api.post<{ Params: { id: string } }>("/v2/image-tasks/:id/cancel", (request, reply) => {
        const task = tasks.get(request.params.id);
        recordCall(context, request, task?.model ?? null);
        if (task === undefined) return sendError(reply, 404, "not_found", `No image task ${request.params.id}.`);
        if (task.state !== "queued" && task.state !== "in_progress" && task.state !== UNDOCUMENTED_STATE) {
          return sendError(reply, 409, "invalid_state", `Task ${task.id} is ${task.state} and can no longer be canceled.`);
        }
        task.state = "canceled";
        return reply.send(describeTask(task, request));
      });
      registerVendorFVisionRoutes(api, context);
    });
    // Result files are fetched without the key, like the signed URLs vendors hand out.
    app.get<{ Params: { id: string } }>("/v2/files/:id", (request, reply) =>
      sendStoredFile(reply, context.files.get(request.params.id), {
        notFound: { error_type: "not_found", detail: `No file ${request.params.id}.` },
        broken: { error_type: "storage_unavailable", detail: "File storage is temporarily unavailable." },
      }),
    );
  },
};

async function createTask(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext, tasks: Map<string, ImageTask>) {
  const body = parseJsonBody(request.body);
  const modelId = isRecord(body) && typeof body.model === "string" ? body.model : null;
  recordCall(context, request, modelId);
  if (context.latencyMs > 0) await delay(context.latencyMs);

  if (body === undefined) return sendError(reply, 400, "invalid_json", "The request body is not valid JSON.");
  const parsed = createTaskSchema.safeParse(body);
  if (!parsed.success) return sendError(reply, 422, "validation_error", describeIssue(parsed.error));
  const model = findImageModel(FAMILY, parsed.data.model);
  if (model === undefined) return sendError(reply, 404, "model_not_found", `Unknown model ${parsed.data.model}.`);
  const input = parsed.data.input;
  const derivation = await readImageInputs(input);
  if (typeof derivation === "string") return sendError(reply, 422, "validation_error", derivation);
  const problem = imageAskProblem(model, {
    count: input.num_images,
    size: input.image_size,
    sequence: input.sequential,
    palette: input.palette !== undefined,
    seed: input.seed !== undefined,
    negativePrompt: input.negative_prompt !== undefined,
    ...(derivation ? { source: derivation.source, inputImages: derivation.inputs.length, editRegions: derivation.regions.length } : {}),
  });
  if (problem) return sendError(reply, 422, "validation_error", problem);

  const fault = context.faults.take(FAMILY, model.id);
  switch (fault?.kind) {
    case "http_500":
      return sendError(reply, 500, "internal_error", "The scheduler failed to accept the task.");
    case "http_429":
      reply.header("retry-after", String(fault.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS));
      return sendError(reply, 429, "rate_limited", "Too many concurrent tasks for this key.");
    case "safety":
      return sendError(reply, 422, "content_policy_violation", "The prompt violates the content policy and was not accepted.");
    case "malformed":
      return reply.code(202).type("application/json").send('{"task_id": "');
  }

  const seed = input.seed ?? randomSeed();
  const task: ImageTask = { id: `ftask_${randomUUID()}`, model: model.id, state: "queued", progress: 0, seed, images: [] };
  tasks.set(task.id, task);
  const picture = {
    ...input.image_size,
    prompt: input.prompt,
    count: input.num_images,
    relationship: input.sequential ? ("sequence" as const) : ("independent" as const),
    palette: input.palette,
  };
  void runTask(task, fault, context, {
    ...picture,
    render: (index) => (derivation ? renderDerivedImage({ ...picture, ...derivation }, index) : renderImage({ ...picture, seed }, index)),
  });
  return reply.code(202).send(describeTask(task, request));
}

// The vendor's worker: renders the set image by image, moving the progress along, unless a fault decides
// otherwise. A cancel that arrives meanwhile wins over the result.
// What a task renders: `count` pictures of width × height, one at a time.
interface TaskRender {
  count: number;
  width: number;
  height: number;
  render(index: number): Promise<Buffer>;
}

async function runTask(task: ImageTask, fault: TriggeredFault | undefined, context: EmulatorContext, render: TaskRender) {
  await delay(0);
  if (task.state !== "queued") return;
  task.state = "in_progress";
  switch (fault?.kind) {
    case "hang":
      task.progress = STALLED_PERCENT;
      return;
    case "unknown_status":
      task.state = UNDOCUMENTED_STATE;
      return;
    case "content_filtered":
      task.state = "failed";
      task.error = { type: "content_moderated", detail: "The generated images were withheld by output moderation." };
      return;
  }
  try {
    const images: ImageTask["images"] = [];
    for (let index = 0; index < render.count; index++) {
      const file = await storePicture(context, await render.render(index), fault?.kind === "bad_download");
      images.push({ file, width: render.width, height: render.height });
      task.progress = Math.round((100 * (index + 1)) / (render.count + 1));
    }
    if (task.state !== "in_progress") return;
    task.images = images;
    task.progress = 100;
    task.state = "completed";
  } catch (error) {
    if (task.state !== "in_progress") return;
    task.state = "failed";
    task.error = { type: "internal_error", detail: `rendering failed: ${(error as Error).message}` };
  }
}

function describeTask(task: ImageTask, request: FastifyRequest) {
  return {
    task_id: task.id,
    model: task.model,
    state: task.state,
    progress_percent: task.progress,
    ...(task.state === "queued" || task.state === "in_progress" ? { poll_after_ms: POLL_AFTER_MS } : {}),
    ...(task.state === "completed"
      ? {
          result: {
            seed: task.seed,
            images: task.images.map((image) => ({
              url: `${request.protocol}://${request.host}/${FAMILY}/v2/files/${image.file.fileId}`,
              width: image.width,
              height: image.height,
              content_type: PNG_CONTENT_TYPE,
            })),
          },
        }
      : {}),
    ...(task.error ? { error: task.error } : {}),
  };
}

function recordCall(context: EmulatorContext, request: FastifyRequest, model: string | null) {
  const path = request.url.split("?")[0] ?? request.url;
  context.requests.record({ family: FAMILY, method: request.method, path, model, at: new Date().toISOString() });
}

function sendError(reply: FastifyReply, status: number, errorType: string, detail: string) {
  return reply.code(status).send({ error_type: errorType, detail });
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue === undefined ? "The request is invalid." : `${issue.path.join(".") || "body"}: ${issue.message}`;
}
