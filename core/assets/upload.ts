import { createHash } from "node:crypto";
import { z } from "zod";
import { artifacts } from "../db/schema/index.js";
import { failure, invalidRequest, ServiceError, zodFailures } from "../errors/index.js";
import type { Core } from "../runtime.js";

// An upload is a tenant's own artifact, with no task: media inputs then reference it as
// {type: "artifact", artifact_id}. Bytes travel as base64 in JSON so REST and MCP take the same body.
export const assetUploadSchema = z
  .object({
    content_base64: z.string().min(1).describe("The file's bytes, base64-encoded (RFC 4648 §4, padded)."),
    filename: z.string().min(1).max(255).optional().describe("The file's name, kept for your reference."),
    content_type: z
      .string()
      .max(127)
      .regex(/^[a-z]+\/[a-z0-9][a-z0-9.+-]*$/i, "must be a media type such as audio/mpeg")
      .optional()
      .describe("Media type; guessed from the filename's extension when omitted."),
  })
  .strict();

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const TYPES_BY_EXTENSION: Record<string, string> = {
  mp3: "audio/mpeg",
  wav: "audio/wav",
  flac: "audio/flac",
  ogg: "audio/ogg",
  opus: "audio/ogg",
  m4a: "audio/mp4",
  aac: "audio/aac",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
};

function contentTypeOf(filename: string | undefined, given: string | undefined): string {
  if (given) return given.toLowerCase();
  const extension = filename?.includes(".") ? filename.slice(filename.lastIndexOf(".") + 1).toLowerCase() : "";
  return TYPES_BY_EXTENSION[extension] ?? "application/octet-stream";
}

function kindOf(contentType: string): string {
  const family = contentType.slice(0, contentType.indexOf("/"));
  return family === "image" || family === "audio" || family === "video" ? family : "file";
}

function tooLarge(maxBytes: number, receivedBytes: number | null): ServiceError {
  return new ServiceError("media_too_large", `Uploads are limited to ${maxBytes} bytes.`, {
    param: "/content_base64",
    details: { max_bytes: maxBytes, ...(receivedBytes !== null ? { received_bytes: receivedBytes } : {}) },
  });
}

// POST /v1/assets and svc.assets.upload: validate, store the bytes, record the artifact, answer its reference
// with a signed download URL.
export async function uploadAsset(core: Core, tenantId: string, raw: unknown) {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw invalidRequest([failure([], "the body must be a JSON object")]);
  }
  const parsed = assetUploadSchema.safeParse(raw);
  if (!parsed.success) throw invalidRequest(zodFailures(parsed.error));
  const input = parsed.data;
  const maxBytes = core.config.assetUploadMaxBytes;
  // Refused before decoding: base64 carries 3 bytes in every 4 characters.
  if (input.content_base64.length > Math.ceil(maxBytes / 3) * 4) throw tooLarge(maxBytes, null);
  if (!BASE64.test(input.content_base64) || input.content_base64.length % 4 !== 0) {
    throw invalidRequest([failure(["content_base64"], "must be base64 (RFC 4648 §4, padded, no whitespace)")]);
  }
  const bytes = Buffer.from(input.content_base64, "base64");
  if (bytes.length > maxBytes) throw tooLarge(maxBytes, bytes.length);

  const id = core.ids.artifact();
  const contentType = contentTypeOf(input.filename, input.content_type);
  const kind = kindOf(contentType);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const storageKey = `${tenantId}/uploads/${id}`;
  const now = core.clock();
  await core.artifacts.put(storageKey, bytes);
  await core.db.insert(artifacts).values({
    id,
    tenantId,
    taskId: null,
    kind,
    contentType,
    byteSize: bytes.length,
    sha256,
    storageKey,
    media: { source: "upload", filename: input.filename ?? null },
    createdAt: now,
  });
  const signed = core.signer.sign(id, now);
  return {
    object: "artifact" as const,
    type: "artifact" as const,
    artifact_id: id,
    kind,
    content_type: contentType,
    byte_size: bytes.length,
    sha256,
    filename: input.filename ?? null,
    url: signed.url,
    url_expires_at: signed.expiresAt.toISOString(),
    created_at: now.toISOString(),
  };
}

export type UploadedAsset = Awaited<ReturnType<typeof uploadAsset>>;
