import { createHash, randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../vendor-family.js";
import { probeMedia } from "../../core/media/probe.js";
import { describePicture, imageTokens } from "../media/image-analysis.js";
import { downloadPicture } from "../media/input-pictures.js";
import { vendorBError } from "./vendor-b-errors.js";

// vendorB's prompt enhancer: an OpenAI-style chat completion, answered synchronously. It reads the video idea,
// duration and aspect ratio from the user message (docs/providers/vendorB.md) and writes a shot-by-shot
// prompt whose shots fill the duration and whose framing and camera work suit the ratio.

const FAMILY = "vendorB";
const COMPLETIONS_PATH = "/api/v3/chat/completions";
// The vendor's Seed chat model the service calls for enhancement (its model list names it), with the control
// name its calls are logged and faulted under (the service's model, as tests and faults name it).
const ENHANCER_MODELS: Record<string, string> = { "seed-2-0-pro-260328": "vendorB-2-prompt-enhancer" };
const DEFAULT_RETRY_AFTER_SECONDS = 1;
// Tokens are counted the way the service estimates them: four characters each, rounded up.
const CHARACTERS_PER_TOKEN = 4;

const completionSchema = z.object({
  model: z.string().min(1),
  messages: z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() })).min(1),
  max_tokens: z.number().int().positive().optional(),
  // Seed models think before answering unless told not to; the emulator writes no reasoning either way.
  thinking: z.object({ type: z.enum(["enabled", "disabled", "auto"]) }).strict().optional(),
});

const FRAMING: Record<string, string> = {
  "21:9": "anamorphic ultra-wide 21:9 frame with room for the landscape on both sides",
  "16:9": "widescreen 16:9 frame",
  "4:3": "classic 4:3 frame, subject centred",
  "1:1": "square 1:1 frame with a centred, symmetrical composition",
  "3:4": "portrait 3:4 frame, subject filling the upper two thirds",
  "9:16": "vertical 9:16 frame for phones, subject kept in the central safe area",
};
const SHOTS = ["Wide establishing shot", "Medium shot", "Close-up", "Extreme close-up on a telling detail", "Pull back to a wide final shot"];
const CAMERA = ["slow dolly-in", "gentle handheld drift", "smooth lateral tracking move", "slow crane up", "locked-off tripod"];
const LIGHT = [
  "soft golden-hour backlight with long shadows",
  "cool overcast daylight, muted palette",
  "warm practical lamps against a blue dusk",
  "high-contrast noon sun, crisp shadows",
  "moody low-key light with a single rim light",
];

function tokens(text: string): number {
  return Math.ceil([...text].length / CHARACTERS_PER_TOKEN);
}

function lastMatch(text: string, pattern: RegExp): string | undefined {
  return [...text.matchAll(pattern)].at(-1)?.[1]?.trim();
}

// Two shots for a short clip, up to five for a long one, each with its time range.
export function enhancePrompt(idea: string, durationSeconds: number, aspectRatio: string): string {
  const pick = createHash("sha256").update(idea).digest();
  const shotCount = Math.min(SHOTS.length, Math.max(2, Math.round(durationSeconds / 3)));
  const boundaries = Array.from({ length: shotCount + 1 }, (_, i) => Math.round((durationSeconds * i) / shotCount));
  const shots = boundaries.slice(0, -1).map((from, i) => {
    const shot = i === shotCount - 1 && shotCount > 2 ? SHOTS[SHOTS.length - 1] : SHOTS[i];
    return `${from}-${boundaries[i + 1]}s: ${shot}, ${CAMERA[(pick[i]! + i) % CAMERA.length]}.`;
  });
  return [
    `${idea.replace(/[.\s]+$/, "")}.`,
    `Framing: ${FRAMING[aspectRatio] ?? `${aspectRatio} frame`}.`,
    `Shots over ${durationSeconds} seconds: ${shots.join(" ")}`,
    `Lighting: ${LIGHT[pick[0]! % LIGHT.length]}. Natural motion, 24 fps, shallow depth of field.`,
  ].join(" ");
}

interface VisualContext {
  sentences: string[];
  tokens: number;
}

// Frames and references named in the user message are downloaded and looked at: an image is described by the
// colours that cover most of it, a video or audio reference by its length. Each image costs tokens like a
// vision model's.
async function readVisualContext(user: string): Promise<VisualContext> {
  const context: VisualContext = { sentences: [], tokens: 0 };
  for (const match of user.matchAll(/^(Opening frame|Closing frame|Reference \d+ \((image|video|audio)\)):\s*(\S+)\s*$/gm)) {
    const label = match[1] as string;
    const kind = match[2] ?? "image";
    const url = match[3] as string;
    if (kind === "image") {
      const picture = await downloadPicture(url).catch((error: unknown) => {
        throw new Error(`${label}: ${(error as Error).message}`);
      });
      const facts = await describePicture(picture);
      const colours = facts.dominantColours.map((c) => `${c.name} (${Math.round(c.share * 100)}%)`).join(", ");
      context.sentences.push(`${label}: a ${facts.width}×${facts.height} picture, mostly ${colours || "mixed colours"}.`);
      context.tokens += imageTokens(facts, "default");
    } else {
      const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      if (!response.ok) throw new Error(`${label}: downloading answered HTTP ${response.status}`);
      const probe = await probeMedia(Buffer.from(await response.arrayBuffer())).catch(() => {
        throw new Error(`${label}: not decodable ${kind}`);
      });
      context.sentences.push(`${label}: ${kind}, ${probe.durationSeconds.toFixed(1)} s long.`);
    }
  }
  return context;
}

export function registerVendorBEnhancerRoutes(app: FastifyInstance, context: EmulatorContext): void {
  app.post(COMPLETIONS_PATH, (request, reply) => complete(request, reply, context));
}

async function complete(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext) {
  const body = request.body as { model?: unknown } | undefined;
  const model = typeof body?.model === "string" ? (ENHANCER_MODELS[body.model] ?? body.model) : null;
  context.requests.record({ family: FAMILY, method: request.method, path: COMPLETIONS_PATH, model, at: new Date().toISOString() });
  if (context.latencyMs > 0) await delay(context.latencyMs);
  if (!/^Bearer\s+\S+/i.test(request.headers.authorization ?? "")) {
    return reply.code(401).send(vendorBError("AuthenticationError", "the API key in the request is missing or invalid"));
  }
  const parsed = completionSchema.safeParse(body);
  if (!parsed.success) return reply.code(400).send(vendorBError("InvalidParameter", parsed.error.issues[0]?.message ?? "invalid body"));
  if (ENHANCER_MODELS[parsed.data.model] === undefined) {
    return reply.code(404).send(vendorBError("InvalidEndpointOrModel.NotFound", `the model ${parsed.data.model} does not exist`));
  }
  const user = parsed.data.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
  const idea = lastMatch(user, /^Video idea:(.*)$/gm);
  const duration = Number(lastMatch(user, /^Duration:\s*(\d+)\s*seconds?\s*$/gm));
  const ratio = lastMatch(user, /^Aspect ratio:(.*)$/gm);
  if (!idea || !Number.isInteger(duration) || !ratio) {
    return reply.code(400).send(vendorBError("InvalidParameter", "the user message must give 'Video idea:', 'Duration: N seconds' and 'Aspect ratio:' lines", "messages"));
  }

  let visual: VisualContext;
  try {
    visual = await readVisualContext(user);
  } catch (error) {
    return reply.code(400).send(vendorBError("InvalidParameter.MediaUnreadable", (error as Error).message, "messages"));
  }

  const fault = context.faults.take(FAMILY, model);
  let finishReason = "stop";
  switch (fault?.kind) {
    case "hang":
      // Fastify is started with forceCloseConnections, so closing the emulator ends this socket.
      reply.hijack();
      return reply;
    case "http_500":
      return reply.code(500).send(vendorBError("InternalServiceError", "the service encountered an unexpected internal error"));
    case "http_429":
      return reply
        .code(429)
        .header("retry-after", String(fault.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS))
        .send(vendorBError("RateLimitExceeded.EndpointTPMExceeded", "the token rate of this endpoint exceeded its limit"));
    case "safety":
      return reply.code(400).send(vendorBError("InputTextSensitiveContentDetected", "the input text may contain sensitive information", "messages"));
    case "malformed":
      return reply.code(200).type("application/json").send('{"choices": [');
    case "content_filtered":
      finishReason = "content_filter";
      break;
    case "unknown_status":
      finishReason = "suspended";
      break;
    // A completion has no file to download: bad_download leaves it untouched.
    case "bad_download":
    case undefined:
      break;
  }
  const content = finishReason === "stop" ? [enhancePrompt(idea, duration, ratio), ...visual.sentences].join(" ") : "";
  const promptTokens = parsed.data.messages.reduce((sum, m) => sum + tokens(m.content), 0) + visual.tokens;
  const completionTokens = tokens(content);
  return reply.send({
    id: `chatcmpl-${randomBytes(12).toString("hex")}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: parsed.data.model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finishReason }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  });
}
