import type { ImageGenerationInput } from "../../capabilities/images/generations.js";
import type { ProviderEndpoint } from "../../config.js";
import { retryAfterMs, vendorFetch } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { imageInputsAsk, isImageInputsCapability } from "../image-inputs.js";
import { ProviderFailure, type ProviderOutcome, type ProviderOutput, type ProviderRequest } from "../types.js";
import { predictParameters } from "./parameters.js";
import { referencePredictBody } from "./reference-images.js";

// vendorE's synchronous predict call (docs/providers/vendorE.md), for text to image, image-to-image and edits:
// the answer holds every image, base64-encoded. The images are handed on as data: URLs, so they take the same
// download-probe-store path as any other output.

// The vendor holds the connection while it renders the whole set.
const PREDICT_TIMEOUT_MS = 120_000;

interface VendorError {
  error?: { code?: number; status?: string; message?: string; details?: { reason?: string }[] };
}

interface Prediction {
  bytesBase64Encoded?: string;
  mimeType?: string;
  finishReason?: string;
  raiFilteredReason?: string;
}

export async function predictImages(endpoint: ProviderEndpoint, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome> {
  const input = request.input as unknown as ImageGenerationInput;
  const response = await vendorFetch(
    `${endpoint.baseUrl}/v1/models/${encodeURIComponent(request.model)}:predict`,
    {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": endpoint.apiKey },
      body: JSON.stringify(predictBody(request)),
      timeoutMs: PREDICT_TIMEOUT_MS,
    },
    signal,
  );
  const body = jsonAnswer(response.text);
  const answer = (typeof body === "object" && body !== null ? body : {}) as VendorError & { predictions?: Prediction[] };
  if (response.status !== 200) throw failureOf(response.status, response.headers, answer);
  if (answer !== body) {
    // A cut-off answer is treated like a 5xx: the vendor may answer properly next time.
    throw new ProviderFailure("model_request_failed", "vendor answered HTTP 200 with a body that is not JSON", true);
  }
  return { status: "done", outputs: imageOutputs(answer.predictions ?? [], input.count) };
}

// Text to image sends the prompt alone; image-to-image and edits add the input images as references.
function predictBody(request: ProviderRequest) {
  if (isImageInputsCapability(request.capability)) return referencePredictBody(imageInputsAsk(request));
  const input = request.input as unknown as ImageGenerationInput;
  return {
    instances: [{ prompt: input.prompt }],
    parameters: {
      ...predictParameters(input, input.canvas.aspect, input.output_relationship),
      ...(typeof input.reasoning === "boolean" ? { thinking: input.reasoning } : {}),
    },
  };
}

function failureOf(status: number, headers: Headers, answer: VendorError): ProviderFailure {
  const vendorStatus = answer.error?.status ?? `HTTP ${status}`;
  const message = `${vendorStatus}: ${answer.error?.message ?? "no message"}`;
  if (status === 429) return new ProviderFailure("model_rate_limited", `vendor rate limit: ${message}`, true, retryAfterMs(headers));
  if (status === 401 || status === 403 || status === 404) {
    return new ProviderFailure("model_unavailable", `vendor does not serve this model to us: ${message}`, false);
  }
  if (status === 504) return new ProviderFailure("model_timeout", `vendor timed out: ${message}`, true);
  if (status >= 500) return new ProviderFailure("model_request_failed", `vendor error: ${message}`, true);
  if (answer.error?.details?.some((detail) => detail.reason === "PROMPT_BLOCKED")) {
    return new ProviderFailure("safety_rejected", `vendor safety review: ${answer.error.message ?? "prompt blocked"}`, false);
  }
  return new ProviderFailure("model_request_failed", `vendor refused the request: ${message}`, false);
}

// The service never splits or trims a request: one withheld or missing image fails the whole task.
function imageOutputs(predictions: Prediction[], expected: number): ProviderOutput[] {
  const filtered = predictions.find((p) => p.finishReason === "RAI_FILTERED" || p.raiFilteredReason !== undefined);
  if (filtered) {
    throw new ProviderFailure("content_filtered", `vendor output filter: ${filtered.raiFilteredReason ?? "image withheld"}`, false);
  }
  const unexpected = predictions.find((p) => p.finishReason !== "SUCCESS" || !p.bytesBase64Encoded);
  if (unexpected) {
    const reason = JSON.stringify(unexpected.finishReason);
    throw new ProviderFailure("model_request_failed", `vendor answered an image with finishReason ${reason}, which is not a success`, false);
  }
  if (predictions.length !== expected) {
    const message = `vendor answered ${predictions.length} images where ${expected} were asked for`;
    throw new ProviderFailure("model_request_failed", message, false);
  }
  return predictions.map((p) => {
    const mimeType = p.mimeType ?? "image/png";
    return { url: `data:${mimeType};base64,${p.bytesBase64Encoded}`, kind: "image", format: mimeType.replace("image/", "") };
  });
}
