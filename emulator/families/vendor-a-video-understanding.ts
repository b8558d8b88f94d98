import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { UNDERSTANDING_MODELS } from "../../core/catalog/understanding-models.js";
import type { FaultKind } from "../faults.js";
import { answerAboutVideo } from "../media/video-answer.js";
import { fetchMedia, MaterialError } from "../media/video-materials.js";
import { sampleVideo } from "../media/video-sampling.js";
import type { EmulatorContext } from "../vendor-family.js";
import { isRecord, parseJsonBody } from "./raw-json-body.js";
import { invalidParams, sendHttpFault, vendorAStatus } from "./vendor-a-calls.js";

// vendorA-M3 video understanding (docs/providers/vendorA.md, "Video understanding"): one synchronous call with
// the family's chat-completion shapes. The user message holds the prompt and a video URL; the vendor downloads
// the video, samples its frames and answers from what it decoded. Vendor-side errors come back in base_resp.

const FAMILY = "vendorA";
const PATH = "/v1/video_understanding";
// How many colours each sampled frame is described by, per detail level.
const COLOURS_PER_FRAME = { low: 1, default: 2, high: 3 } as const;
const TOKENS_PER_FRAME = 85;
const CHARACTERS_PER_TOKEN = 4;

const STATUS = vendorAStatus({ internalError: "video understanding engine unavailable", inputFlagged: "video flagged by safety review", outputBlocked: "answer blocked" });

const textPart = z.object({ type: z.literal("text"), text: z.string().min(1) }).strict();
const videoPart = z
  .object({
    type: z.literal("video_url"),
    video_url: z.object({ url: z.string().min(1), detail: z.enum(["default", "low", "high"]).default("default") }).strict(),
  })
  .strict();

const understandingSchema = z
  .object({
    model: z.string().min(1),
    messages: z
      .array(z.object({ role: z.literal("user"), content: z.array(z.discriminatedUnion("type", [textPart, videoPart])).min(2) }).strict())
      .length(1),
    temperature: z.number().min(0).max(2).optional(),
    response_format: z.object({ type: z.enum(["text", "json_object"]) }).strict().optional(),
  })
  .strict();

export function registerVendorAVideoUnderstandingRoutes(app: FastifyInstance, context: EmulatorContext): void {
  app.post(PATH, (request, reply) => understand(request, reply, context));
}

async function understand(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext) {
  const body = parseJsonBody(request.body);
  const modelId = isRecord(body) && typeof body.model === "string" ? body.model : null;
  context.requests.record({ family: FAMILY, method: request.method, path: PATH, model: modelId, at: new Date().toISOString() });
  if (context.latencyMs > 0) await delay(context.latencyMs);
  if (!/^Bearer\s+\S+/i.test(request.headers.authorization ?? "")) return reply.code(401).send({ base_resp: STATUS.authenticationFailed });
  if (body === undefined) return reply.send({ base_resp: invalidParams("body is not valid JSON") });
  const parsed = understandingSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return reply.send({ base_resp: invalidParams(`${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`) });
  }
  const call = parsed.data;
  const model = UNDERSTANDING_MODELS.find((m) => m.family === FAMILY && m.id === call.model && m.capabilities.includes("video_to_text"));
  if (model === undefined) return reply.send({ base_resp: invalidParams(`model ${call.model} does not read videos`) });
  const content = call.messages[0]!.content;
  const videos = content.filter((part) => part.type === "video_url");
  if (videos.length !== 1) return reply.send({ base_resp: invalidParams("the message must hold exactly one video_url") });
  const prompt = content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");

  const fault = context.faults.take(FAMILY, call.model);
  if (fault?.kind === "hang") {
    // Fastify is started with forceCloseConnections, so closing the emulator ends this socket.
    reply.hijack();
    return reply;
  }
  // An answer has no file to download: bad_download changes nothing here.
  if (fault !== undefined && fault.kind !== "bad_download") return sendFault(fault.kind, fault.retryAfterSeconds, reply);

  const { url, detail } = videos[0]!.video_url;
  let video;
  try {
    video = await fetchMedia(context.files, url, "video");
  } catch (error) {
    if (error instanceof MaterialError) return reply.send({ base_resp: invalidParams(error.message) });
    throw error;
  }
  if (!video.width || !video.height) return reply.send({ base_resp: invalidParams(`${url} has no picture`) });
  const maxSeconds = model.constraints.max_video_seconds;
  if (video.durationSeconds > maxSeconds) return reply.send({ base_resp: invalidParams(`the video is longer than ${maxSeconds} s`) });
  const sample = await sampleVideo(video.path, { durationSeconds: video.durationSeconds, width: video.width, height: video.height }, COLOURS_PER_FRAME[detail]);
  const answer = answerAboutVideo(prompt, sample, call.response_format?.type === "json_object" ? "json" : "text");
  const promptTokens = Math.ceil([...prompt].length / CHARACTERS_PER_TOKEN) + sample.frames.length * TOKENS_PER_FRAME;
  const completionTokens = Math.ceil([...answer].length / CHARACTERS_PER_TOKEN);
  return reply.send({
    id: randomBytes(12).toString("hex"),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: call.model,
    choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      video_frames: sample.frames.length,
    },
    base_resp: STATUS.success,
  });
}

function sendFault(kind: Exclude<FaultKind, "hang" | "bad_download">, retryAfterSeconds: number | undefined, reply: FastifyReply) {
  switch (kind) {
    case "http_500":
    case "http_429":
      return sendHttpFault(kind, retryAfterSeconds, reply, STATUS.internalError);
    case "safety":
      return reply.send({ base_resp: STATUS.inputFlagged });
    case "content_filtered":
      return reply.send({ base_resp: STATUS.outputBlocked });
    case "unknown_status":
      // A finish reason the vendor documents nowhere.
      return reply.send({ choices: [{ index: 0, message: { role: "assistant", content: "" }, finish_reason: "suspended" }], base_resp: STATUS.success });
    case "malformed":
      return reply.type("application/json").send('{"choices": [');
  }
}
