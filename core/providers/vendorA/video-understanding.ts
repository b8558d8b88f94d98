import type { ProviderEndpoint } from "../../config.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import type { ProviderOutcome } from "../types.js";
import { askVendorA } from "./chat-completion.js";

// vendorA-M3 video understanding (docs/providers/vendorA.md, "Video understanding"): the same chat completion as
// image understanding, the video as one `video_url` part the vendor downloads and samples. The task is billed
// per rounded-up second of the video as the service decoded it, not as the vendor reports it.
export async function answerAboutVideo(endpoint: ProviderEndpoint, request: ProviderRequestOf<"video_to_text">, signal: AbortSignal): Promise<ProviderOutcome> {
  const input = request.input;
  const video = input.video;
  const reply = await askVendorA(
    endpoint,
    {
      model: request.model,
      prompt: input.prompt,
      media: [{ type: "video_url", video_url: { url: video.url, detail: input.detail } }],
      ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
      json: input.response_format === "json",
    },
    signal,
  );
  const seconds = Math.ceil(video.duration_seconds);
  return {
    status: "done",
    outputs: [],
    text: reply.text,
    measured: { input_video_seconds: seconds, video_seconds: seconds, input_tokens: reply.promptTokens, output_tokens: reply.completionTokens },
  };
}
