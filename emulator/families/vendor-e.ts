import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { FaultKind } from "../faults.js";
import { canvasPixelSize, CanvasSizeError, type PixelSize } from "../media/canvas-size.js";
import { renderDerivedSet, type DerivationInputs } from "../media/image-derive.js";
import { findImageModel, imageAskProblem, randomSeed } from "../media/image-limits.js";
import { renderImageSet } from "../media/image-render.js";
import { InputPictureError } from "../media/input-pictures.js";
import { PNG_CONTENT_TYPE } from "../media/stored-images.js";
import type { EmulatorContext, VendorFamily } from "../vendor-family.js";
import { acceptRawBodies, isRecord, parseJsonBody } from "./raw-json-body.js";
import { controlNameOf } from "../vendors/vendor-e-models.js";
import { EDIT_MODES, readReferences, referenceImageSchema } from "./vendor-e-references.js";

// vendorE images: Imagen's synchronous predict call on Vertex AI (docs/providers/vendorE.md), under a base URL
// that names the project and region. One POST holds the connection while the model works and answers with every
// image inline, base64-encoded. Errors are `{error: {code, status, message}}` with the HTTP status in `code`; with
// `includeRaiReason` an image the output filter withholds comes back as a prediction with `raiFilteredReason`,
// without it the set is simply shorter. Reference images (inline bytes) turn the call into image-to-image, or with
// `editMode` into an edit. Faults and the request log name an Imagen model by the service's neutral id.

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
        sampleCount: z.number().int().min(1).default(1),
        aspectRatio: z.string().default("1:1"),
        sampleImageSize: z.string().default("1K"),
        seed: z.number().int().min(1).max(2_147_483_647).optional(),
        addWatermark: z.boolean().default(true),
        enhancePrompt: z.boolean().optional(),
        includeRaiReason: z.boolean().default(false),
        outputOptions: z.object({ mimeType: z.literal(PNG_CONTENT_TYPE) }).strict().optional(),
        editMode: z.enum(EDIT_MODES).optional(),
        // The catalog's controls Imagen does not have, which the service sends only when a request asks for them.
        thinking: z.boolean().optional(),
        outputRelationship: z.enum(["INDEPENDENT", "SEQUENCE"]).default("INDEPENDENT"),
        colorPalette: z
          .array(z.object({ hex: z.string().regex(/^#[0-9A-Fa-f]{6}$/), weight: z.number().gt(0).max(1) }).strict())
          .min(3)
          .max(10)
          .optional(),
      })
      .strict()
      .refine((parameters) => parameters.seed === undefined || !parameters.addWatermark, { message: "seed is not supported when addWatermark is true", path: ["seed"] }),
  })
  .strict();
type PredictBody = z.infer<typeof predictSchema>;

export const vendorEFamily: VendorFamily = {
  name: FAMILY,
  registerRoutes(app, context) {
    acceptRawBodies(app);
    app.setErrorHandler((error, _request, reply) => sendError(reply, 500, "INTERNAL", `Internal error: ${(error as Error).message}`));
    // The path reads {base}/publishers/google/models/{model}:predict; the colon is part of the last segment.
    app.post<{ Params: { target: string } }>("/publishers/google/models/:target", (request, reply) => predict(request, reply, context));
  },
};

async function predict(request: FastifyRequest<{ Params: { target: string } }>, reply: FastifyReply, context: EmulatorContext) {
  const [imagenId, method] = request.params.target.split(":");
  const body = parseJsonBody(request.body);
  context.requests.record({
    family: FAMILY,
    method: request.method,
    path: request.url.split("?")[0] ?? request.url,
    model: imagenId === undefined ? null : controlNameOf(imagenId),
    at: new Date().toISOString(),
  });
  if (context.latencyMs > 0) await delay(context.latencyMs);

  if (!request.headers["x-goog-api-key"]) {
    return sendError(reply, 403, "PERMISSION_DENIED", "The caller does not have permission: no API key was given.");
  }
  const model = imagenId === undefined ? undefined : findImageModel(FAMILY, imagenId);
  if (model === undefined || method !== "predict") {
    return sendError(reply, 404, "NOT_FOUND", `Publisher Model \`publishers/google/models/${imagenId ?? ""}\` was not found.`);
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
  const referenced = await referencedInputs(model.id, parsed.data);
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

  const fault = context.faults.take(FAMILY, controlNameOf(model.id));
  if (fault?.kind === "hang") {
    // Fastify is started with forceCloseConnections, so closing the emulator ends this socket.
    reply.hijack();
    return reply;
  }
  if (fault !== undefined && fault.kind !== "bad_download") {
    return sendFault(fault.kind, fault.retryAfterSeconds, params, reply);
  }
  const pictures = await renderPictures(parsed.data, size, referenced);
  return reply.send({
    predictions: pictures.map((picture) => ({
      bytesBase64Encoded: (fault?.kind === "bad_download" ? NOT_AN_IMAGE : picture).toString("base64"),
      mimeType: PNG_CONTENT_TYPE,
    })),
  });
}

// The downloaded reference images of an image-to-image or edit call, null for text to image, or why not.
async function referencedInputs(modelId: string, body: PredictBody): Promise<DerivationInputs | string | null> {
  const references = body.instances[0]!.referenceImages;
  if (references === undefined) return body.parameters.editMode === undefined ? null : "editMode needs reference images";
  try {
    return await readReferences(modelId, references, body.parameters.editMode);
  } catch (error) {
    if (error instanceof InputPictureError) return `Cannot read a reference image: ${error.message.replace(/data:[^ ]+/g, "its bytes")}`;
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
  params: PredictBody["parameters"],
  reply: FastifyReply,
) {
  const count = params.sampleCount;
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
      // Without includeRaiReason the withheld images are left out of the answer.
      return reply.send({
        predictions: params.includeRaiReason
          ? Array.from({ length: count }, () => ({ raiFilteredReason: "The generated image was withheld by the responsible-AI output filter." }))
          : [],
      });
    case "unknown_status":
      // An answer the reference never gives: predictions without an image or a reason.
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
