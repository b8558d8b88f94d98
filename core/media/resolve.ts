import { and, eq } from "drizzle-orm";
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { artifacts } from "../db/schema/index.js";
import { ServiceError, jsonPointer } from "../errors/index.js";
import { guardedRequest, OutboundError, type OutboundPolicy } from "../net/index.js";
import type { Core } from "../runtime.js";
import { MediaProbeError, probeMedia } from "./probe.js";
import { sniffMediaType } from "./sniff.js";
import { decodeDataUri, mediaSlots, mediaText, mediaTextPath, type MediaFacts, type Slot } from "./slots.js";

// The worker resolves a task's media inputs before it submits to a vendor: fetched over HTTPS through the guarded
// client (DNS checked, redirects re-checked, size capped), decoded from a data URI or read from the tenant's
// artifacts; sniffed from the bytes, decoded with ffprobe, and kept as artifacts. What the service trusts (a
// video's duration, a reference's kind) comes from these decoded bytes, never from the request. Failures carry
// SPEC.md's codes with `param` at the field; media_fetch_failed is retryable.

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function tooLarge(param: string, maxBytes: number): ServiceError {
  return new ServiceError("media_too_large", `The media at ${param} is larger than ${maxBytes} bytes.`, {
    param,
    details: { max_bytes: maxBytes },
  });
}

async function fetchUrl(core: Core, url: string, param: string, policy: OutboundPolicy): Promise<Buffer> {
  try {
    const response = await guardedRequest(policy, {
      method: "GET",
      url,
      timeoutMs: core.config.mediaFetchTimeoutMs,
      maxResponseBytes: core.config.mediaInputMaxBytes,
      maxRedirects: 3,
    });
    if (response.status >= 200 && response.status < 300) return response.body;
    throw new ServiceError("media_fetch_failed", `Fetching the media at ${param} answered HTTP ${response.status}.`, {
      param,
      details: { status: response.status },
    });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    if (error.failure === "too_large") throw tooLarge(param, core.config.mediaInputMaxBytes);
    if (error.failure === "refused") {
      throw new ServiceError("invalid_request", `The media URL at ${param} was refused: ${error.message}.`, { param });
    }
    throw new ServiceError("media_fetch_failed", `Could not fetch the media at ${param}: ${error.message}.`, {
      param,
      details: { reason: error.failure },
    });
  }
}

interface Fetched {
  bytes: Buffer;
  artifactId: string | null;
  source: Record<string, unknown>;
}

async function fetchSlot(core: Core, tenantId: string, slot: Slot, policy: OutboundPolicy): Promise<Fetched> {
  const text = mediaText(slot.value);
  const param = jsonPointer(text === null ? [...slot.path, "artifact_id"] : mediaTextPath(slot));
  if (text?.startsWith("data:")) {
    const decoded = decodeDataUri(text, core.config.mediaInputMaxBytes);
    if (!decoded) throw new ServiceError("invalid_media", `The data URI at ${param} is malformed.`, { param });
    if ("tooLarge" in decoded) throw tooLarge(param, core.config.mediaInputMaxBytes);
    return { bytes: decoded.bytes, artifactId: null, source: { source: "data_uri" } };
  }
  if (text !== null) return { bytes: await fetchUrl(core, text, param, policy), artifactId: null, source: { source: "url", url: text } };
  const artifactId = (slot.value as { artifact_id: string }).artifact_id;
  const rows = await core.db
    .select({ storageKey: artifacts.storageKey })
    .from(artifacts)
    .where(and(eq(artifacts.id, artifactId), eq(artifacts.tenantId, tenantId)))
    .limit(1);
  const opened = rows[0] ? await core.artifacts.open(rows[0].storageKey) : null;
  if (!opened) throw new ServiceError("artifact_not_found", `No artifact ${artifactId}.`, { param });
  if (opened.size > core.config.mediaInputMaxBytes) {
    opened.stream.destroy();
    throw tooLarge(param, core.config.mediaInputMaxBytes);
  }
  return { bytes: await readAll(opened.stream), artifactId, source: { source: "artifact" } };
}

async function resolveSlot(core: Core, tenantId: string, slot: Slot, policy: OutboundPolicy): Promise<MediaFacts> {
  const param = jsonPointer(slot.path);
  const fetched = await fetchSlot(core, tenantId, slot, policy);
  const sniffed = sniffMediaType(fetched.bytes);
  if (!sniffed || sniffed.kind !== slot.expected) {
    throw new ServiceError(
      "unsupported_media_type",
      `The media at ${param} is ${sniffed ? `${sniffed.kind} (${sniffed.format})` : "of no recognised media type"}; ${slot.expected} is expected.`,
      { param, details: { expected_kind: slot.expected, received: sniffed ? `${sniffed.kind}/${sniffed.format}` : "unknown" } },
    );
  }
  let probe;
  try {
    probe = await probeMedia(fetched.bytes);
  } catch (error) {
    if (!(error instanceof MediaProbeError)) throw error;
    throw new ServiceError("invalid_media", `The media at ${param} could not be decoded as ${sniffed.format}.`, { param });
  }
  if ((sniffed.kind === "image" || sniffed.kind === "video") && !(probe.width && probe.height)) {
    throw new ServiceError("invalid_media", `The media at ${param} has no picture.`, { param });
  }
  let artifactId = fetched.artifactId;
  if (!artifactId) {
    artifactId = core.ids.artifact();
    const storageKey = `${tenantId}/inputs/${artifactId}.${sniffed.format}`;
    await core.artifacts.put(storageKey, fetched.bytes);
    await core.db.insert(artifacts).values({
      id: artifactId,
      tenantId,
      taskId: null,
      kind: sniffed.kind,
      contentType: sniffed.contentType,
      byteSize: fetched.bytes.length,
      sha256: createHash("sha256").update(fetched.bytes).digest("hex"),
      storageKey,
      media: { format: sniffed.format, ...probe, ...fetched.source },
      createdAt: core.clock(),
    });
  }
  return {
    artifactId,
    kind: sniffed.kind,
    format: sniffed.format,
    durationSeconds: probe.durationSeconds,
    width: probe.width,
    height: probe.height,
    hasAudio: probe.hasAudio,
  };
}

// Resolves every media input of a task's input; the result is keyed by the field's JSON Pointer.
export async function resolveMediaInputs(core: Core, tenantId: string, input: Record<string, unknown>): Promise<Record<string, MediaFacts>> {
  const slots = mediaSlots(input);
  const policy: OutboundPolicy = { allowLoopbackHttp: core.config.outboundAllowLoopbackHttp };
  const settled = await Promise.allSettled(slots.map((slot) => resolveSlot(core, tenantId, slot, policy)));
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (rejected) throw rejected.reason;
  const facts: Record<string, MediaFacts> = {};
  settled.forEach((s, i) => {
    facts[jsonPointer((slots[i] as Slot).path)] = (s as PromiseFulfilledResult<MediaFacts>).value;
  });
  return facts;
}
