import { randomBytes } from "node:crypto";
import type { FastifyReply } from "fastify";
import type { FaultKind } from "../faults.js";
import { answerAboutVideo } from "../media/video-answer.js";
import { fetchMedia, MaterialError } from "../media/video-materials.js";
import { sampleVideo } from "../media/video-sampling.js";
import type { EmulatorContext } from "../vendor-family.js";
import { MULTIMODAL_LIMITS } from "./vendor-a-models.js";
import { invalidParams, sendHttpFault, vendorAStatus } from "./vendor-a-calls.js";

// The multimodal model reading a video (docs/providers/vendorA.md, "Video understanding"): a chat completion
// whose user message holds the prompt and one `video_url` part (vendor-a-chat.ts routes it here). The vendor
// downloads the video, samples its frames and answers from what it decoded.

// How many colours each sampled frame is described by, per detail level.
const COLOURS_PER_FRAME = { low: 1, default: 2, high: 3 } as const;
const TOKENS_PER_FRAME = 85;
const CHARACTERS_PER_TOKEN = 4;

const STATUS = vendorAStatus({ internalError: "video understanding engine unavailable", inputFlagged: "video flagged by safety review", outputBlocked: "answer blocked" });

export interface VideoQuestion {
  model: string;
  prompt: string;
  url: string;
  detail: keyof typeof COLOURS_PER_FRAME;
  json: boolean;
}

// The answer to a question about one video, or the vendor's refusal of it.
export async function videoAnswer(context: EmulatorContext, question: VideoQuestion) {
  let video;
  try {
    video = await fetchMedia(context.files, question.url, "video");
  } catch (error) {
    if (error instanceof MaterialError) return { base_resp: invalidParams(error.message) };
    throw error;
  }
  if (!video.width || !video.height) return { base_resp: invalidParams(`${question.url} has no picture`) };
  if (video.durationSeconds > MULTIMODAL_LIMITS.maxVideoSeconds) {
    return { base_resp: invalidParams(`the video is longer than ${MULTIMODAL_LIMITS.maxVideoSeconds} s`) };
  }
  const sample = await sampleVideo(
    video.path,
    { durationSeconds: video.durationSeconds, width: video.width, height: video.height },
    COLOURS_PER_FRAME[question.detail],
  );
  const answer = answerAboutVideo(question.prompt, sample, question.json ? "json" : "text");
  const promptTokens = Math.ceil([...question.prompt].length / CHARACTERS_PER_TOKEN) + sample.frames.length * TOKENS_PER_FRAME;
  const completionTokens = Math.ceil([...answer].length / CHARACTERS_PER_TOKEN);
  return {
    id: randomBytes(12).toString("hex"),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: question.model,
    choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    base_resp: STATUS.success,
  };
}

// Scripted faults of a call reading a video. An answer has no file to download: bad_download changes nothing.
export function sendVideoFault(kind: Exclude<FaultKind, "hang" | "bad_download">, retryAfterSeconds: number | undefined, reply: FastifyReply) {
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
