import { ENHANCEMENT_MODELS } from "../../catalog/understanding-models.js";
import { vendorModelId } from "../../catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../config.js";
import { vendorFetch } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../types.js";
import type { VendorInputOf } from "../vendor-input.js";
import { httpFailure, jobFailure, notJson } from "./failures.js";

// vendorB's prompt enhancer is a chat-completions model (docs/providers/vendorB.md): one synchronous call
// answers with the rewritten prompt and the tokens it read and wrote.

const COMPLETIONS_PATH = "/api/v3/chat/completions";
const TIMEOUT_MS = 60_000;
const SYSTEM_PROMPT =
  "You rewrite a short video idea into one detailed prompt for a video model: subject, action, setting, shot " +
  "sizes, camera movement, lighting and pacing that fit the duration and aspect ratio given. Answer with the prompt only.";

interface Completion {
  choices?: { message?: { content?: string }; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

// The enhancer reads the idea, its framing and any visual context from one user message, in the layout its
// documentation gives: strict frames and references are lines naming a URL it downloads and looks at.
function enhancerUserMessage(input: VendorInputOf<"video_prompt_enhancement">): string {
  const lines = [`Video idea: ${input.prompt}`, `Duration: ${input.duration} seconds`, `Aspect ratio: ${input.aspect_ratio}`];
  if (input.first_frame) lines.push(`Opening frame: ${input.first_frame.url}`);
  if (input.last_frame) lines.push(`Closing frame: ${input.last_frame.url}`);
  for (const [i, reference] of (input.references ?? []).entries()) lines.push(`Reference ${i + 1} (${reference.kind}): ${reference.media.url}`);
  return lines.join("\n");
}

export async function enhanceVendorBPrompt(endpoint: ProviderEndpoint, request: ProviderRequestOf<"video_prompt_enhancement">, signal: AbortSignal): Promise<ProviderOutcome> {
  const input = request.input;
  const maxTokens = ENHANCEMENT_MODELS.find((m) => m.id === request.model)?.constraints.max_output_tokens;
  const response = await vendorFetch(
    `${endpoint.baseUrl}${COMPLETIONS_PATH}`,
    {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${endpoint.apiKey}` },
      body: JSON.stringify({
        model: vendorModelId(endpoint.ids, request.model),
        messages: [
          { role: "system", content: SYSTEM_PROMPT },
          { role: "user", content: enhancerUserMessage(input) },
        ],
        ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
        // A Seed model reasons first by default, spending the token budget on it; a rewrite needs none.
        thinking: { type: "disabled" },
      }),
      timeoutMs: TIMEOUT_MS,
    },
    signal,
  );
  const body = jsonAnswer(response.text);
  if (response.status !== 200) throw httpFailure(response, body);
  if (typeof body !== "object" || body === null) throw notJson(response);
  const completion = body as Completion;
  const choice = completion.choices?.[0];
  switch (choice?.finish_reason) {
    case "stop":
    case "length":
      break;
    case "content_filter":
      throw jobFailure({ code: "OutputTextSensitiveContentDetected", message: "the rewritten prompt was blocked" });
    default:
      throw new ProviderFailure("model_request_failed", `vendor ended the completion with ${JSON.stringify(choice?.finish_reason)}`, false);
  }
  const text = choice.message?.content?.trim();
  if (!text) throw new ProviderFailure("model_request_failed", "vendor answered an empty completion", false);
  return {
    status: "done",
    outputs: [],
    text,
    measured: { input_tokens: completion.usage?.prompt_tokens ?? 0, output_tokens: completion.usage?.completion_tokens ?? 0 },
  };
}
