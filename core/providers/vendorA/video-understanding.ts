import type { VideoResponsesInput } from "../../capabilities/videos/responses.js";
import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../types.js";
import type { ResolvedMediaInput } from "../video-job.js";
import { callVendorA } from "./call.js";

// vendorA-M3 video understanding (docs/providers/vendorA.md, "Video understanding"): one synchronous call whose
// user message holds the prompt and the video as a URL the vendor downloads and samples. The task is billed per
// rounded-up second of the video as the service decoded it, not as the vendor reports it.

const UNDERSTANDING_PATH = "/v1/video_understanding";
const UNDERSTANDING_TIMEOUT_MS = 120_000;
const FINISHED = ["stop", "length"];

interface UnderstandingAnswer {
  base_resp?: { status_code?: number; status_msg?: string };
  choices?: { message?: { content?: string }; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

export async function answerAboutVideo(endpoint: ProviderEndpoint, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const input = request.input as unknown as VideoResponsesInput;
  const video = request.input.video as ResolvedMediaInput;
  const body = {
    model: request.model,
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: input.prompt },
          { type: "video_url", video_url: { url: video.url, detail: input.detail } },
        ],
      },
    ],
    ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
    ...(input.response_format === "json" ? { response_format: { type: "json_object" } } : {}),
  };
  const answer = await callVendorA<UnderstandingAnswer>(endpoint, UNDERSTANDING_PATH, signal, { body, timeoutMs: UNDERSTANDING_TIMEOUT_MS });
  const choice = answer.choices?.[0];
  const text = choice?.message?.content;
  if (!choice || !FINISHED.includes(choice.finish_reason ?? "") || typeof text !== "string" || text.length === 0) {
    throw new ProviderFailure(
      "model_request_failed",
      `vendor answered without a finished reply (finish_reason ${JSON.stringify(choice?.finish_reason)})`,
      false,
    );
  }
  const seconds = Math.ceil(video.duration_seconds);
  return {
    status: "done",
    outputs: [],
    text,
    measured: {
      input_video_seconds: seconds,
      video_seconds: seconds,
      input_tokens: answer.usage?.prompt_tokens ?? 0,
      output_tokens: answer.usage?.completion_tokens ?? 0,
    },
  };
}
