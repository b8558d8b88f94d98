import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { canvasPixelSize, CanvasSizeError, type PixelSize } from "../../core/catalog/canvas.js";
import type { FaultKind } from "../faults.js";
import { renderDerivedSet, type DerivationInputs } from "../media/image-derive.js";
import { findImageModel, imageAskProblem, randomSeed } from "../media/image-limits.js";
import { renderImageSet } from "../media/image-render.js";
import { InputPictureError } from "../media/input-pictures.js";
import { PNG_CONTENT_TYPE } from "../media/stored-images.js";
import type { EmulatorContext, VendorFamily } from "../vendor-family.js";
import { acceptRawBodies, isRecord, parseJsonBody } from "./raw-json-body.js";
import { EDIT_MODES, readReferences, referenceImageSchema } from "./vendor-e-references.js";

// vendorE images: a synchronous predict call (docs/providers/vendorE.md). One POST holds the connection while the
// model works and answers with every image inline, base64-encoded. Errors are `{error: {code, status, message}}`
// with the HTTP status in `code`; an image the output filter withholds comes back as a prediction without bytes.
// Reference images (downloaded by the model) turn the call into image-to-image, or with `editMode` into an edit.

const FAMILY = "vendorE";
const DEFAULT_RETRY_AFTER_SECONDS = 1;
// What the bad_download fault puts where an image belongs: a relay's error page, encoded as if it were the image.
const NOT_AN_IMAGE = Buffer.from("<html><body><h1>502 Bad Gateway</h1></body></html>");

const predictSchema = z
  .object({
    instances: z
      .array(z.object({ prompt: z.string().trim().min(1), referenceImages: z.array(referenceImageSchema).min(1).optional() }).strict())
      .length(1),
    parameters: z
      .object({
        sampleCount: z.number().int().min(1),
        aspectRatio: z.string(),
        sampleImageSize: z.string(),
        seed: z.number().int().min(0).max(2_147_483_647).optional(),
        enhancePrompt: z.boolean().optional(),
        thinking: z.boolean().optional(),
        outputRelationship: z.enum(["INDEPENDENT", "SEQUENCE"]).default("INDEPENDENT"),
        colorPalette: z
          .array(z.object({ hex: z.string().regex(/^#[0-9A-Fa-f]{6}$/), weight: z.number().gt(0).max(1) }).strict())
          .min(3)
          .max(10)
          .optional(),
        outputOptions: z.object({ mimeType: z.literal(PNG_CONTENT_TYPE) }).strict().optional(),
        editMode: z.enum(EDIT_MODES).optional(),
      })
      .strict(),
  })
  .strict();
type PredictBody = z.infer<typeof predictSchema>;

export const vendorEFamily: VendorFamily = {
  name: FAMILY,
  registerRoutes(app, context) {
    acceptRawBodies(app);
    app.setErrorHandler((error, _request, reply) => sendError(reply, 500, "INTERNAL", `Internal error: ${(error as Error).message}`));
    // The path reads /v1/models/{model}:predict; the colon is part of the last segment, not a route parameter.
    app.post<{ Params: { target: string } }>("/v1/models/:target", (request, reply) => predict(request, reply, context));
  },
};

async function predict(request: FastifyRequest<{ Params: { target: string } }>, reply: FastifyReply, context: EmulatorContext) {
  const [modelId, method] = request.params.target.split(":");
  const body = parseJsonBody(request.body);
  context.requests.record({
    family: FAMILY,
    method: request.method,
    path: request.url.split("?")[0] ?? request.url,
    model: modelId ?? null,
    at: new Date().toISOString(),
  });
  if (context.latencyMs > 0) await delay(context.latencyMs);

  if (!request.headers["x-api-key"]) return sendError(reply, 401, "UNAUTHENTICATED", "API key not valid. Please pass a valid API key.");
  const model = modelId === undefined ? undefined : findImageModel(FAMILY, modelId);
  if (model === undefined || method !== "predict") {
    return sendError(reply, 404, "NOT_FOUND", `models/${request.params.target} is not found or is not supported for predict.`);
  }
  if (!isRecord(body)) return sendError(reply, 400, "INVALID_ARGUMENT", "Invalid JSON payload received.");
  const parsed = predictSchema.safeParse(body);
  if (!parsed.success) return sendError(reply, 400, "INVALID_ARGUMENT", describeIssue(parsed.error));
  const params = parsed.data.parameters;
  let size: PixelSize;
  try {
    size = canvasPixelSize(params.sampleImageSize, params.aspectRatio);
  } catch (error) {
    if (error instanceof CanvasSizeError) return sendError(reply, 400, "INVALID_ARGUMENT", error.message);
    throw error;
  }
  const referenced = await referencedInputs(parsed.data);
  if (typeof referenced === "string") return sendError(reply, 400, "INVALID_ARGUMENT", referenced);
  const problem = imageAskProblem(model, {
    count: params.sampleCount,
    size,
    sequence: params.outputRelationship === "SEQUENCE",
    palette: params.colorPalette !== undefined,
    seed: params.seed !== undefined,
    negativePrompt: false,
    ...(referenced ? { source: referenced.source, inputImages: referenced.inputs.length, editRegions: referenced.regions.length } : {}),
  });
  if (problem) return sendError(reply, 400, "INVALID_ARGUMENT", problem);

  const fault = context.faults.take(FAMILY, model.id);
  if (fault?.kind === "hang") {
    // Fastify is started with forceCloseConnections, so closing the emulator ends this socket.
    reply.hijack();
    return reply;
  }
  if (fault !== undefined && fault.kind !== "bad_download") {
    return sendFault(fault.kind, fault.retryAfterSeconds, params.sampleCount, reply);
  }
  const pictures = await renderPictures(parsed.data, size, referenced);
  return reply.send({
    predictions: pictures.map((picture) => ({
      bytesBase64Encoded: (fault?.kind === "bad_download" ? NOT_AN_IMAGE : picture).toString("base64"),
      mimeType: PNG_CONTENT_TYPE,
      finishReason: "SUCCESS",
    })),
    modelVersion: model.id,
  });
}

// The downloaded reference images of an image-to-image or edit call, null for text to image, or why not.
async function referencedInputs(body: PredictBody): Promise<DerivationInputs | string | null> {
  const references = body.instances[0]!.referenceImages;
  if (references === undefined) return body.parameters.editMode === undefined ? null : "editMode needs reference images";
  try {
    return await readReferences(references, body.parameters.editMode);
  } catch (error) {
    if (error instanceof InputPictureError) return `Cannot read a reference image: ${error.message}`;
    throw error;
  }
}

function renderPictures(body: PredictBody, size: PixelSize, referenced: DerivationInputs | null): Promise<Buffer[]> {
  const params = body.parameters;
  const common = {
    ...size,
    prompt: body.instances[0]!.prompt,
    count: params.sampleCount,
    relationship: params.outputRelationship === "SEQUENCE" ? ("sequence" as const) : ("independent" as const),
    palette: params.colorPalette?.map((entry) => ({ color: entry.hex, weight: entry.weight })),
  };
  if (referenced) return renderDerivedSet({ ...common, ...referenced });
  return renderImageSet({ ...common, seed: params.seed ?? randomSeed() });
}

function sendFault(
  kind: Exclude<FaultKind, "hang" | "bad_download">,
  retryAfterSeconds: number | undefined,
  count: number,
  reply: FastifyReply,
) {
  switch (kind) {
    case "http_500":
      return sendError(reply, 500, "INTERNAL", "Internal error encountered.");
    case "http_429":
      reply.header("retry-after", String(retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS));
      return sendError(reply, 429, "RESOURCE_EXHAUSTED", "Quota exceeded for image generation requests per minute.");
    case "safety":
      return reply.code(400).send({
        error: {
          code: 400,
          status: "INVALID_ARGUMENT",
          message: "The prompt could not be submitted: it was blocked by the safety filter.",
          details: [{ reason: "PROMPT_BLOCKED" }],
        },
      });
    case "content_filtered":
      return reply.send({
        predictions: Array.from({ length: count }, () => ({
          finishReason: "RAI_FILTERED",
          raiFilteredReason: "The generated image was withheld by the responsible-AI output filter.",
        })),
      });
    case "unknown_status":
      return reply.send({ predictions: Array.from({ length: count }, () => ({ finishReason: "DEFERRED" })) });
    case "malformed":
      return reply.type("application/json").send('{"predictions": [{"bytesBase64Encoded": "iVBORw0KGgo');
  }
}

function sendError(reply: FastifyReply, code: number, status: string, message: string) {
  return reply.code(code).send({ error: { code, status, message } });
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue === undefined ? "Invalid request." : `Invalid value at '${issue.path.join(".") || "body"}': ${issue.message}`;
}
