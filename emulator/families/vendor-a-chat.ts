import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { FaultKind } from "../faults.js";
import { answerAbout, describePicture, imageTokens, textTokens } from "../media/image-analysis.js";
import { downloadPictures, InputPictureError } from "../media/input-pictures.js";
import type { EmulatorContext } from "../vendor-family.js";
import { acceptRawBodies, isRecord, parseJsonBody } from "./raw-json-body.js";
import { invalidParams, sendHttpFault, traceId, vendorAStatus } from "./vendor-a-calls.js";
import { controlNameOf, MULTIMODAL_LIMITS, MULTIMODAL_MODEL } from "./vendor-a-models.js";
import { sendVideoFault, videoAnswer } from "./vendor-a-video-understanding.js";

// vendorA's OpenAI-compatible chat completions (docs/providers/vendorA-image.md), the multimodal model MiniMax-M3
// reading images or a video: synchronous, Bearer key, errors as a non-zero base_resp.status_code (mostly under
// HTTP 200) like the family's other calls. The reply is computed from the images or the video the model
// downloads and decodes; `usage` counts the tokens both ways.

const PATH = "/v1/chat/completions";

const FAMILY = "vendorA";
// A finish reason the protocol does not document, for the unknown_status fault.
const UNDOCUMENTED_FINISH_REASON = "paused";

const STATUS = vendorAStatus({ internalError: "multimodal engine unavailable", inputFlagged: "request flagged by safety review", outputBlocked: "reply blocked" });

const DETAIL = z.enum(MULTIMODAL_LIMITS.detailLevels).default("default");

const contentPartSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }).strict(),
  z.object({ type: z.literal("image_url"), image_url: z.object({ url: z.url(), detail: DETAIL }).strict() }).strict(),
  z.object({ type: z.literal("video_url"), video_url: z.object({ url: z.string().min(1), detail: DETAIL }).strict() }).strict(),
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
    scope.post(PATH, (request, reply) => complete(request, reply, context));
  });
}

async function complete(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext) {
  const body = parseJsonBody(request.body);
  const modelId = isRecord(body) && typeof body.model === "string" ? controlNameOf(body.model) : null;
  context.requests.record({ family: FAMILY, method: request.method, path: PATH, model: modelId, at: new Date().toISOString() });
  if (context.latencyMs > 0) await delay(context.latencyMs);

  if (!/^Bearer\s+\S+/i.test(request.headers.authorization ?? "")) return reply.code(401).send({ base_resp: STATUS.authenticationFailed });
  if (body === undefined) return reply.send({ base_resp: invalidParams("body is not valid JSON") });
  const parsed = completionSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return reply.send({ base_resp: invalidParams(`${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`) });
  }
  if (parsed.data.model !== MULTIMODAL_MODEL) return reply.send({ base_resp: invalidParams(`unknown model ${parsed.data.model}`) });
  const parts = parsed.data.messages.flatMap((message) => (typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content));
  const images = parts.filter((part): part is Extract<ContentPart, { type: "image_url" }> => part.type === "image_url");
  const videos = parts.filter((part): part is Extract<ContentPart, { type: "video_url" }> => part.type === "video_url");
  if (images.length > MULTIMODAL_LIMITS.maxImages) return reply.send({ base_resp: invalidParams(`at most ${MULTIMODAL_LIMITS.maxImages} images`) });
  if (videos.length > 1 || (videos.length === 1 && images.length > 0)) {
    return reply.send({ base_resp: invalidParams("a message reads images or one video_url, not both") });
  }

  const fault = context.faults.take(FAMILY, modelId);
  if (fault?.kind === "hang") {
    // Fastify is started with forceCloseConnections, so closing the emulator ends this socket.
    reply.hijack();
    return reply;
  }
  const video = videos[0];
  if (video !== undefined) {
    if (fault !== undefined && fault.kind !== "bad_download") return sendVideoFault(fault.kind, fault.retryAfterSeconds, reply);
    const prompt = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
    const json = parsed.data.response_format?.type === "json_object";
    return reply.send(await videoAnswer(context, { model: parsed.data.model, prompt, url: video.video_url.url, detail: video.video_url.detail, json }));
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
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
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

