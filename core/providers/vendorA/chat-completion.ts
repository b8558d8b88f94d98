import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure } from "../types.js";
import { callVendorA, vendorAModelId } from "./call.js";

// vendorA's OpenAI-compatible chat completions, `POST /v1/chat/completions` (docs/providers/vendorA-image.md),
// which is where the vendor documents MiniMax-M3 reading images and videos. One user message holds the prompt
// and the media as URLs the vendor downloads; the answer is one finished reply and its token counts.

const CHAT_PATH = "/v1/chat/completions";
const COMPLETION_TIMEOUT_MS = 120_000;
const FINISHED = ["stop", "length"];

export type ChatMediaPart =
  | { type: "image_url"; image_url: { url: string; detail: string } }
  | { type: "video_url"; video_url: { url: string; detail: string } };

export interface ChatQuestion {
  model: string;
  prompt: string;
  media: ChatMediaPart[];
  temperature?: number;
  json: boolean;
}

interface CompletionAnswer {
  base_resp?: { status_code?: number; status_msg?: string };
  choices?: { message?: { content?: string }; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

export interface ChatReply {
  text: string;
  promptTokens: number;
  completionTokens: number;
}

export async function askVendorA(endpoint: ProviderEndpoint, question: ChatQuestion, signal: AbortSignal): Promise<ChatReply> {
  const body = {
    model: vendorAModelId(endpoint, question.model),
    messages: [{ role: "user", content: [{ type: "text", text: question.prompt }, ...question.media] }],
    ...(question.temperature !== undefined ? { temperature: question.temperature } : {}),
    ...(question.json ? { response_format: { type: "json_object" } } : {}),
  };
  const answer = await callVendorA<CompletionAnswer>(endpoint, CHAT_PATH, signal, { body, timeoutMs: COMPLETION_TIMEOUT_MS, openAiCompatible: true });
  const choice = answer.choices?.[0];
  const text = choice?.message?.content;
  if (!choice || !FINISHED.includes(choice.finish_reason ?? "") || typeof text !== "string" || text.length === 0) {
    const reason = JSON.stringify(choice?.finish_reason);
    throw new ProviderFailure("model_request_failed", `vendor answered without a finished reply (finish_reason ${reason})`, false);
  }
  const usage = answer.usage;
  if (usage?.prompt_tokens === undefined || usage.completion_tokens === undefined) {
    // Postpaid work is billed from these counts; an answer without them cannot be settled.
    throw new ProviderFailure("model_request_failed", "vendor answered without its usage", false);
  }
  return { text, promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens };
}
