import { createHash } from "node:crypto";
import { z } from "zod";
import type { ArtifactUrlSigner } from "../artifacts/signed-url.js";
import type { ArtifactStore } from "../artifacts/store.js";
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { artifacts } from "../db/schema/index.js";
import { failure, invalidRequest, ServiceError, zodFailures } from "../errors/index.js";
import { MediaProbeError, probeMedia, type MediaProbe } from "../media/probe.js";
import { sniffMediaType } from "../media/sniff.js";
import type { IdGenerator } from "../ids.js";
import { reserveUpload } from "./quota.js";

// An upload is a tenant's own artifact, with no task: media inputs then reference it as
// {type: "artifact", artifact_id}. Bytes travel as base64 in JSON so REST and MCP take the same body. Only media
// is accepted, of the types the bytes themselves show (ACCEPTED_UPLOAD_TYPES); the type stored and served is the
// sniffed one, so nothing uploaded is ever served as HTML, SVG or script.
export const assetUploadSchema = z
  .object({
    content_base64: z.string().min(1).describe("The file's bytes, base64-encoded (RFC 4648 §4, padded)."),
    filename: z.string().min(1).max(255).optional().describe("The file's name, kept for your reference."),
    content_type: z
      .string()
      .max(127)
      .regex(/^[a-z]+\/[a-z0-9][a-z0-9.+-]*$/i, "must be a media type such as audio/mpeg")
      .optional()
      .describe("Media type, checked against the bytes (which decide the type stored and served)."),
  })
  .strict();

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const ACCEPTED_UPLOAD_TYPES = [
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/gif",
  "audio/mpeg",
  "audio/wav",
  "audio/flac",
  "audio/ogg",
  "audio/mp4",
  "video/mp4",
  "video/quicktime",
  "video/webm",
] as const;

// The upload's decoded facts (size, length, rate), kept with it so a request naming it is checked against each
// model's input limits at admission; bytes ffprobe cannot read are stored as before and judged when a task uses them.
async function probeOrNull(bytes: Buffer): Promise<MediaProbe | null> {
  try {
    return await probeMedia(bytes);
  } catch (error) {
    if (error instanceof MediaProbeError) return null;
    throw error;
  }
}

// The sniffed type, refused unless it is media; a declared content_type must name the same kind of media.
function mediaTypeOf(bytes: Buffer, declared: string | undefined) {
  const sniffed = sniffMediaType(bytes);
  if (!sniffed) {
    throw new ServiceError("unsupported_media_type", "Uploads accept image, audio and video files only; these bytes are none of them.", {
      param: "/content_base64",
      details: { accepted: ACCEPTED_UPLOAD_TYPES },
    });
  }
  const declaredKind = declared?.toLowerCase().split("/")[0];
  if (declared !== undefined && declaredKind !== sniffed.kind && !(declaredKind !== "image" && sniffed.format === "mp4")) {
    throw new ServiceError("invalid_media", `content_type says ${declared}, but the bytes are ${sniffed.kind} (${sniffed.format}).`, {
      param: "/content_type",
      details: { declared, received: sniffed.contentType },
    });
  }
  return sniffed;
}

function tooLarge(maxBytes: number, receivedBytes: number | null): ServiceError {
  return new ServiceError("media_too_large", `Uploads are limited to ${maxBytes} bytes.`, {
    param: "/content_base64",
    details: { max_bytes: maxBytes, ...(receivedBytes !== null ? { received_bytes: receivedBytes } : {}) },
  });
}

// The parts of the runtime an upload uses.
export interface UploadRuntime {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  signer: ArtifactUrlSigner;
  artifacts: ArtifactStore;
  config: Pick<Config, "assetUploadMaxBytes">;
}

// POST /v1/assets and svc.assets.upload: validate, store the bytes, record the artifact, answer its reference
// with a signed download URL.
export async function uploadAsset(core: UploadRuntime, tenantId: string, raw: unknown) {
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

  const sniffed = mediaTypeOf(bytes, input.content_type);
  const probe = await probeOrNull(bytes);
  const id = core.ids.artifact();
  const contentType = sniffed.contentType;
  const kind = sniffed.kind;
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const storageKey = `${tenantId}/uploads/${id}`;
  const now = core.clock();
  await core.db.transaction(async (tx) => {
    await reserveUpload(tx, tenantId, bytes.length);
    await core.artifacts.put(storageKey, bytes);
    await tx.insert(artifacts).values({
      id,
      tenantId,
      taskId: null,
      kind,
      contentType,
      byteSize: bytes.length,
      sha256,
      storageKey,
      media: { source: "upload", format: sniffed.format, filename: input.filename ?? null, ...probe },
      createdAt: now,
    });
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
