import { DEFAULT_VENDOR_IDS, vendorModelId } from "../../catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../config.js";
import { retryAfterMs, vendorFetch, type VendorHeaders } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { imageInputsAsk, type ImageCapability } from "../image-inputs.js";
import type { ProviderRequestOf } from "../served-capabilities.js";
import { parameterRefusal, ProviderFailure, type ProviderOutcome, type ProviderOutput } from "../types.js";
import { predictParameters } from "./parameters.js";
import { referencePredictBody } from "./reference-images.js";

// vendorE: Imagen's synchronous predict call on Vertex AI (docs/providers/vendorE.md), for text to image,
// image-to-image and edits: the answer holds every image, base64-encoded. The images are handed on as data: URLs,
// so they take the same download-probe-store path as any other output.

// The vendor holds the connection while it renders the whole set.
const PREDICT_TIMEOUT_MS = 120_000;

interface VendorError {
  error?: { code?: number; status?: string; message?: string; details?: { reason?: string }[] };
}

interface Prediction {
  bytesBase64Encoded?: string;
  mimeType?: string;
  raiFilteredReason?: string;
}

export async function predictImages(endpoint: ProviderEndpoint, request: ProviderRequestOf<ImageCapability>, signal: AbortSignal): Promise<ProviderOutcome> {
  const model = vendorModelId(endpoint.ids ?? DEFAULT_VENDOR_IDS.vendorE, request.model);
  const body = JSON.stringify(await predictBody(request, signal));
  // The base URL names the project and region: https://{region}-aiplatform.googleapis.com/v1/projects/{project}/locations/{region}.
  const response = await vendorFetch(
    `${endpoint.baseUrl}/publishers/google/models/${encodeURIComponent(model)}:predict`,
    {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": endpoint.apiKey },
      body,
      timeoutMs: PREDICT_TIMEOUT_MS,
    },
    signal,
  );
  const parsed = jsonAnswer(response.text);
  const answer = (typeof parsed === "object" && parsed !== null ? parsed : {}) as VendorError & { predictions?: Prediction[] };
  if (response.status !== 200) throw failureOf(response.status, response.headers, answer);
  if (answer !== parsed) {
    // A cut-off answer is treated like a 5xx: the vendor may answer properly next time.
    throw new ProviderFailure("model_request_failed", "vendor answered HTTP 200 with a body that is not JSON", true);
  }
  return { status: "done", outputs: imageOutputs(answer.predictions ?? [], request.input.count) };
}

// Text to image sends the prompt alone; image-to-image and edits add the input images as references.
async function predictBody(request: ProviderRequestOf<ImageCapability>, signal: AbortSignal) {
  if (request.capability !== "text_to_image") return referencePredictBody(imageInputsAsk(request), signal);
  const input = request.input;
  return {
    instances: [{ prompt: input.prompt }],
    parameters: {
      ...predictParameters(input, input.canvas.aspect, input.output_relationship),
      // Not in the reference either: sent only when the request sets it.
      ...(typeof input.reasoning === "boolean" ? { thinking: input.reasoning } : {}),
    },
  };
}

function failureOf(status: number, headers: VendorHeaders, answer: VendorError): ProviderFailure {
  const vendorStatus = answer.error?.status ?? `HTTP ${status}`;
  const message = `${vendorStatus}: ${answer.error?.message ?? "no message"}`;
  if (status === 429) return new ProviderFailure("model_rate_limited", `vendor rate limit: ${message}`, true, retryAfterMs(headers));
  // A wrong key is 400 with the ErrorInfo reason API_KEY_INVALID; a missing one 401 or 403.
  if (status === 401 || status === 403 || status === 404 || answer.error?.details?.some((detail) => detail.reason === "API_KEY_INVALID")) {
    return new ProviderFailure("model_unavailable", `vendor does not serve this model to us: ${message}`, false);
  }
  if (status === 504) return new ProviderFailure("model_timeout", `vendor timed out: ${message}`, true);
  if (status >= 500) return new ProviderFailure("model_request_failed", `vendor error: ${message}`, true);
  if (answer.error?.details?.some((detail) => detail.reason === "PROMPT_BLOCKED")) {
    return new ProviderFailure("safety_rejected", `vendor safety review: ${answer.error.message ?? "prompt blocked"}`, false);
  }
  if (status === 400) return parameterRefusal(message);
  return new ProviderFailure("model_request_failed", `vendor refused the request: ${message}`, false);
}

// The service never splits or trims a request: one withheld or missing image fails the whole task.
function imageOutputs(predictions: Prediction[], expected: number): ProviderOutput[] {
  const filtered = predictions.find((p) => p.raiFilteredReason !== undefined);
  if (filtered) throw new ProviderFailure("content_filtered", `vendor output filter: ${filtered.raiFilteredReason}`, false);
  const unexpected = predictions.find((p) => !p.bytesBase64Encoded);
  if (unexpected) {
    throw new ProviderFailure("model_request_failed", `vendor answered a prediction without an image: ${JSON.stringify(unexpected)}`, false);
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
