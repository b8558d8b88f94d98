import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { UNDERSTANDING_MODELS } from "../../core/catalog/understanding-models.js";
import type { FaultKind } from "../faults.js";
import { answerAbout, describePicture, imageTokens, textTokens } from "../media/image-analysis.js";
import { downloadPictures, InputPictureError } from "../media/input-pictures.js";
import type { EmulatorContext } from "../vendor-family.js";
import { acceptRawBodies, isRecord, parseJsonBody } from "./raw-json-body.js";
import { invalidParams, sendHttpFault, traceId, vendorAStatus } from "./vendor-a-calls.js";

// vendorA chat completions (docs/providers/vendorA-image.md), the multimodal model vendorA-M3 reading images:
// synchronous, Bearer key, errors as a non-zero base_resp.status_code (mostly under HTTP 200) like the family's
// other calls. The reply is computed from the images the model downloads and decodes; `usage` counts the tokens
// both ways and the images read.

const FAMILY = "vendorA";
// A finish reason the protocol does not document, for the unknown_status fault.
const UNDOCUMENTED_FINISH_REASON = "paused";

const STATUS = vendorAStatus({ internalError: "multimodal engine unavailable", inputFlagged: "request flagged by safety review", outputBlocked: "reply blocked" });

const contentPartSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }).strict(),
  z
    .object({
      type: z.literal("image_url"),
      image_url: z.object({ url: z.url(), detail: z.enum(["default", "low", "high"]).default("default") }).strict(),
    })
    .strict(),
]);

const completionSchema = z
  .object({
    model: z.string().min(1),
    messages: z
      .array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.union([z.string(), z.array(contentPartSchema).min(1)]) }).strict())
      .min(1),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.number().int().positive().optional(),
    response_format: z.object({ type: z.enum(["text", "json_object"]) }).strict().optional(),
  })
  .strict();
type Completion = z.infer<typeof completionSchema>;
type ContentPart = z.infer<typeof contentPartSchema>;

export function registerVendorAChatRoutes(app: FastifyInstance, context: EmulatorContext): void {
  void app.register(async (scope) => {
    acceptRawBodies(scope);
    scope.post("/v1/text/chatcompletion_v2", (request, reply) => complete(request, reply, context));
  });
}

async function complete(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext) {
  const body = parseJsonBody(request.body);
  const modelId = isRecord(body) && typeof body.model === "string" ? body.model : null;
  context.requests.record({
    family: FAMILY,
    method: request.method,
    path: request.url.split("?")[0] ?? request.url,
    model: modelId,
    at: new Date().toISOString(),
  });
  if (context.latencyMs > 0) await delay(context.latencyMs);

  if (!/^Bearer\s+\S+/i.test(request.headers.authorization ?? "")) return reply.code(401).send({ base_resp: STATUS.authenticationFailed });
  if (body === undefined) return reply.send({ base_resp: invalidParams("body is not valid JSON") });
  const parsed = completionSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return reply.send({ base_resp: invalidParams(`${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`) });
  }
  const model = UNDERSTANDING_MODELS.find((candidate) => candidate.family === FAMILY && candidate.id === parsed.data.model);
  if (model === undefined) return reply.send({ base_resp: invalidParams(`unknown model ${parsed.data.model}`) });
  const parts = parsed.data.messages.flatMap((message) => (typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content));
  const images = parts.filter((part): part is Extract<ContentPart, { type: "image_url" }> => part.type === "image_url");
  if (images.length > model.constraints.max_images) return reply.send({ base_resp: invalidParams(`at most ${model.constraints.max_images} images`) });
  const refusedDetail = images.find((image) => !model.constraints.detail_levels.includes(image.image_url.detail));
  if (refusedDetail) return reply.send({ base_resp: invalidParams(`detail ${refusedDetail.image_url.detail} is not offered`) });

  const fault = context.faults.take(FAMILY, model.id);
  if (fault?.kind === "hang") {
    reply.hijack();
    return reply;
  }
  if (fault !== undefined) return sendFault(fault.kind, fault.retryAfterSeconds, reply);
  return reply.send(await completionAnswer(parsed.data, parts, images));
}

// The reply to the last user message: its text is the prompt, its images are downloaded and described.
async function completionAnswer(completion: Completion, parts: ContentPart[], images: Extract<ContentPart, { type: "image_url" }>[]) {
  const prompt = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  let pictures;
  try {
    pictures = await Promise.all((await downloadPictures(images.map((image) => image.image_url.url))).map(describePicture));
  } catch (error) {
    if (error instanceof InputPictureError) return { id: traceId(), base_resp: invalidParams(`image_url: ${error.message}`) };
    throw error;
  }
  const content = answerAbout(prompt, pictures, completion.response_format?.type === "json_object" ? "json" : "text");
  const promptTokens = textTokens(prompt) + pictures.reduce((sum, picture, i) => sum + imageTokens(picture, images[i]!.image_url.detail), 0);
  const completionTokens = textTokens(content);
  return {
    id: traceId(),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: completion.model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens, image_count: pictures.length },
    base_resp: STATUS.success,
  };
}

function sendFault(kind: Exclude<FaultKind, "hang">, retryAfterSeconds: number | undefined, reply: FastifyReply) {
  switch (kind) {
    case "http_500":
    case "http_429":
      return sendHttpFault(kind, retryAfterSeconds, reply, STATUS.internalError);
    case "safety":
      return reply.send({ id: traceId(), base_resp: STATUS.inputFlagged });
    case "content_filtered":
      return reply.send({ id: traceId(), base_resp: STATUS.outputBlocked });
    case "unknown_status":
      return reply.send({
        id: traceId(),
        choices: [{ index: 0, message: { role: "assistant", content: "" }, finish_reason: UNDOCUMENTED_FINISH_REASON }],
        base_resp: STATUS.success,
      });
    case "bad_download":
      // The model could not fetch the images it was given.
      return reply.send({ id: traceId(), base_resp: invalidParams("image_url: downloading the image failed") });
    case "malformed":
      return reply.type("application/json").send('{"id": "');
  }
}

