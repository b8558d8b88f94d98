import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { TriggeredFault } from "../faults.js";
import { answerAbout, describePicture, imageTokens, textTokens } from "../media/image-analysis.js";
import { downloadPictures, InputPictureError } from "../media/input-pictures.js";
import type { EmulatorContext } from "../vendor-family.js";
import { VENDOR_F_VISION_MODELS } from "../vendors/vendor-f-models.js";
import { isRecord, parseJsonBody } from "./raw-json-body.js";

// vendorF vision tasks (docs/providers/vendorF.md): image understanding on vendorF-vision, with the family's task
// vocabulary (queued → in_progress → completed | failed | canceled), `{error_type, detail}` errors and `Key` auth
// (checked by the family's scope these routes are registered in). The answer is computed from the images the model
// downloads and decodes; `usage` counts tokens both ways and the images read.

const FAMILY = "vendorF";
const POLL_AFTER_MS = 300;
const DEFAULT_RETRY_AFTER_SECONDS = 1;
const STALLED_PERCENT = 37;
const UNDOCUMENTED_STATE = "paused";
const READING_PERCENT = 50;

type TaskState = "queued" | "in_progress" | "completed" | "failed" | "canceled" | typeof UNDOCUMENTED_STATE;

interface VisionTask {
  id: string;
  model: string;
  state: TaskState;
  progress: number;
  result?: { answer: string; usage: { input_tokens: number; output_tokens: number; images: number } };
  error?: { type: string; detail: string };
}

const createVisionTaskSchema = z
  .object({
    model: z.string().min(1),
    input: z
      .object({
        prompt: z.string().trim().min(1),
        images: z.array(z.object({ url: z.url() }).strict()).min(1),
        detail: z.enum(["default", "low", "high"]).default("default"),
        temperature: z.number().optional(),
      })
      .strict(),
  })
  .strict();
type VisionInput = z.infer<typeof createVisionTaskSchema>["input"];

export function registerVendorFVisionRoutes(api: FastifyInstance, context: EmulatorContext): void {
  const tasks = new Map<string, VisionTask>();
  api.post("/v2/vision-tasks", (request, reply) => createTask(request, reply, context, tasks));
  api.get<{ Params: { id: string } }>("/v2/vision-tasks/:id", (request, reply) => {
    const task = tasks.get(request.params.id);
    if (task === undefined) return sendError(reply, 404, "not_found", `No vision task ${request.params.id}.`);
    return reply.send(describeTask(task));
  });
  api.post<{ Params: { id: string } }>("/v2/vision-tasks/:id/cancel", (request, reply) => {
    const task = tasks.get(request.params.id);
    recordCall(context, request, task?.model ?? null);
    if (task === undefined) return sendError(reply, 404, "not_found", `No vision task ${request.params.id}.`);
    if (task.state !== "queued" && task.state !== "in_progress" && task.state !== UNDOCUMENTED_STATE) {
      return sendError(reply, 409, "invalid_state", `Task ${task.id} is ${task.state} and can no longer be canceled.`);
    }
    task.state = "canceled";
    return reply.send(describeTask(task));
  });
}

async function createTask(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext, tasks: Map<string, VisionTask>) {
  const body = parseJsonBody(request.body);
  recordCall(context, request, isRecord(body) && typeof body.model === "string" ? body.model : null);
  if (context.latencyMs > 0) await delay(context.latencyMs);

  if (body === undefined) return sendError(reply, 400, "invalid_json", "The request body is not valid JSON.");
  const parsed = createVisionTaskSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return sendError(reply, 422, "validation_error", `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
  }
  const model = VENDOR_F_VISION_MODELS.find((candidate) => candidate.id === parsed.data.model);
  if (model === undefined) return sendError(reply, 404, "model_not_found", `Unknown model ${parsed.data.model}.`);
  const { input } = parsed.data;
  if (input.images.length > model.maxImages) return sendError(reply, 422, "validation_error", `${model.id} reads at most ${model.maxImages} images`);
  if (!model.detailLevels.includes(input.detail)) return sendError(reply, 422, "validation_error", `${model.id} does not offer detail ${input.detail}`);
  const { temperature } = model;
  if (input.temperature !== undefined && (input.temperature < temperature.min || input.temperature > temperature.max)) {
    return sendError(reply, 422, "validation_error", `temperature must be ${temperature.min} to ${temperature.max}`);
  }

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
  const task: VisionTask = { id: `vtask_${randomUUID()}`, model: model.id, state: "queued", progress: 0 };
  tasks.set(task.id, task);
  void runTask(task, fault, input);
  return reply.code(202).send(describeTask(task));
}

// The vendor's worker: downloads and reads the images, then answers, unless a fault decides otherwise. A cancel
// that arrives meanwhile wins over the answer.
async function runTask(task: VisionTask, fault: TriggeredFault | undefined, input: VisionInput) {
  await delay(0);
  if (task.state !== "queued") return;
  task.state = "in_progress";
  task.progress = READING_PERCENT;
  switch (fault?.kind) {
    case "hang":
      task.progress = STALLED_PERCENT;
      return;
    case "unknown_status":
      task.state = UNDOCUMENTED_STATE;
      return;
    case "content_filtered":
      return fail(task, "content_moderated", "The answer was withheld by output moderation.");
    case "bad_download":
      return fail(task, "invalid_input", "The images could not be downloaded.");
  }
  try {
    const pictures = await Promise.all((await downloadPictures(input.images.map((image) => image.url))).map(describePicture));
    const answer = answerAbout(input.prompt, pictures, "text");
    if (task.state !== "in_progress") return;
    const inputTokens = textTokens(input.prompt) + pictures.reduce((sum, picture) => sum + imageTokens(picture, input.detail), 0);
    task.result = { answer, usage: { input_tokens: inputTokens, output_tokens: textTokens(answer), images: pictures.length } };
    task.progress = 100;
    task.state = "completed";
  } catch (error) {
    if (task.state !== "in_progress") return;
    if (error instanceof InputPictureError) return fail(task, "invalid_input", error.message);
    fail(task, "internal_error", `reading failed: ${(error as Error).message}`);
  }
}

function fail(task: VisionTask, type: string, detail: string) {
  task.state = "failed";
  task.error = { type, detail };
}

function describeTask(task: VisionTask) {
  return {
    task_id: task.id,
    model: task.model,
    state: task.state,
    progress_percent: task.progress,
    ...(task.state === "queued" || task.state === "in_progress" ? { poll_after_ms: POLL_AFTER_MS } : {}),
    ...(task.state === "completed" && task.result ? { result: task.result } : {}),
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
