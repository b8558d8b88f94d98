import { randomInt } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { FaultKind } from "../faults.js";
import { derivationOf, renderDerivedSet, type DerivationInputs } from "../media/image-derive.js";
import { downloadPictures, InputPictureError } from "../media/input-pictures.js";
import { storeImageSet, storePicture } from "../media/stored-images.js";
import type { EmulatorContext } from "../vendor-family.js";
import { acceptRawBodies, isRecord, parseJsonBody } from "./raw-json-body.js";
import { invalidParams, sendHttpFault, traceId, vendorAStatus } from "./vendor-a-calls.js";
import { IMAGE_MODEL } from "./vendor-a-models.js";

// vendorA images (image-01-live): synchronous like vendorA speech (docs/providers/vendorA-image.md). One POST answers
// with download URLs, served by the family's /v1/files route; vendor-side errors come back with a non-zero
// base_resp.status_code, mostly under HTTP 200. A `subject_reference` image, downloaded by the model, makes the
// call image-to-image (`style`: the picture restyled) or an edit (`base`: the picture edited).

const FAMILY = "vendorA";
// image_generation's bounds: 1 to 9 images a request; a custom size 512 to 2048 pixels a side, a multiple of 8;
// image-01-live takes one subject reference.
const MAX_IMAGES = 9;
const SIDE = { min: 512, max: 2048, step: 8 };
const MAX_SUBJECT_REFERENCES = 1;
const side = z
  .number()
  .int()
  .min(SIDE.min)
  .max(SIDE.max)
  .refine((pixels) => pixels % SIDE.step === 0, `must be a multiple of ${SIDE.step}`);

const STATUS = vendorAStatus({ internalError: "image engine unavailable", inputFlagged: "prompt flagged by safety review", outputBlocked: "generated image blocked" });

const imageRequestSchema = z
  .object({
    model: z.string().min(1),
    prompt: z.string().trim().min(1).max(1500),
    width: side,
    height: side,
    n: z.number().int().min(1).max(MAX_IMAGES),
    prompt_optimizer: z.boolean().optional(),
    response_format: z.literal("url"),
    subject_reference: z
      .array(z.object({ type: z.enum(["style", "base"]), image_file: z.url() }).strict())
      .min(1)
      .max(MAX_SUBJECT_REFERENCES)
      .optional(),
  })
  .strict();
type ImageRequest = z.infer<typeof imageRequestSchema>;

export function registerVendorAImageRoutes(app: FastifyInstance, context: EmulatorContext): void {
  void app.register(async (scope) => {
    acceptRawBodies(scope);
    scope.post("/v1/image_generation", (request, reply) => generate(request, reply, context));
  });
}

async function generate(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext) {
  const body = parseJsonBody(request.body);
  const modelId = isRecord(body) && typeof body.model === "string" ? body.model : null;
  context.requests.record({
    family: FAMILY,
    method: request.method,
    path: request.url.split("?")[0] ?? request.url,
    model: modelId,
    at: new Date().toISOString(),
  });
  if (context.latencyMs > 0) await delay(context.latencyMs);

  if (!/^Bearer\s+\S+/i.test(request.headers.authorization ?? "")) {
    return reply.code(401).send({ base_resp: STATUS.authenticationFailed });
  }
  if (body === undefined) return reply.send({ base_resp: invalidParams("body is not valid JSON") });
  const parsed = imageRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return reply.send({ base_resp: invalidParams(`${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`) });
  }
  if (parsed.data.model !== IMAGE_MODEL) return reply.send({ base_resp: invalidParams(`unknown model ${parsed.data.model}`) });
  const { width, height, n, prompt } = parsed.data;
  const derivation = await subjectReferences(parsed.data);
  if (typeof derivation === "string") return reply.send({ base_resp: invalidParams(derivation) });

  const fault = context.faults.take(FAMILY, IMAGE_MODEL);
  if (fault?.kind === "hang") {
    reply.hijack();
    return reply;
  }
  if (fault !== undefined && fault.kind !== "bad_download") return sendFault(fault.kind, fault.retryAfterSeconds, n, reply);

  const picture = { width, height, prompt, count: n, relationship: "independent" as const };
  const failsDownload = fault?.kind === "bad_download";
  const files = derivation
    ? await Promise.all((await renderDerivedSet({ ...picture, ...derivation })).map((bytes) => storePicture(context, bytes, failsDownload)))
    : await storeImageSet(context, { ...picture, seed: randomInt(2_147_483_647) }, failsDownload);
  return reply.send({
    id: traceId(),
    data: { image_urls: files.map((file) => `${request.protocol}://${request.host}/${FAMILY}/v1/files/${file.fileId}`) },
    metadata: { success_count: String(n), failed_count: "0" },
    base_resp: STATUS.success,
  });
}

// The downloaded subject references, null without any, or why they cannot be used.
async function subjectReferences(body: ImageRequest): Promise<DerivationInputs | string | null> {
  const references = body.subject_reference;
  if (references === undefined) return null;
  const type = references[0]!.type;
  if (references.some((reference) => reference.type !== type)) return "subject_reference: style and base cannot be mixed";
  try {
    const inputs = await downloadPictures(references.map((reference) => reference.image_file));
    return derivationOf(type === "style" ? "remix" : "edit", inputs, []);
  } catch (error) {
    if (error instanceof InputPictureError) return `subject_reference: ${error.message}`;
    throw error;
  }
}

function sendFault(
  kind: Exclude<FaultKind, "hang" | "bad_download">,
  retryAfterSeconds: number | undefined,
  n: number,
  reply: FastifyReply,
) {
  switch (kind) {
    case "http_500":
    case "http_429":
      return sendHttpFault(kind, retryAfterSeconds, reply, STATUS.internalError);
    case "safety":
      return reply.send({ id: traceId(), base_resp: STATUS.inputFlagged });
    case "content_filtered":
      return reply.send({ id: traceId(), base_resp: STATUS.outputBlocked });
    case "unknown_status":
      // Reported as a success, yet every image of the request failed: not an answer the protocol describes.
      return reply.send({
        id: traceId(),
        data: { image_urls: [] },
        metadata: { success_count: "0", failed_count: String(n) },
        base_resp: STATUS.success,
      });
    case "malformed":
      return reply.type("application/json").send('{"id": "');
  }
}

