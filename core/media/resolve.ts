import type { z } from "zod";
import { rm } from "node:fs/promises";
import { and, eq } from "drizzle-orm";
import type { ArtifactStore } from "../artifacts/store.js";
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { artifacts, taskInlineMedia } from "../db/schema/index.js";
import { ServiceError, jsonPointer } from "../errors/index.js";
import { guardedRequest, OutboundError, type OutboundPolicy } from "../net/index.js";
import type { IdGenerator } from "../ids.js";
import { exchangeFailure, httpStatusFailure } from "./fetch-failure.js";
import { declaredType, isInlineReference } from "./inline.js";
import { mediaInputCap } from "./limits.js";
import { MediaProbeError, probeMediaFile } from "./probe.js";
import { sniffMediaType, type SniffedType } from "./sniff.js";
import { decodeDataUri, mediaSlots, mediaText, mediaTextPath, type MediaFacts, type Slot } from "./slots.js";
import { SpoolTooLarge, SpoolWriter, spoolBytes, spoolDirectory, spoolStream, type Spooled } from "./spool.js";
import { refusedMediaUrl } from "./url-refusal.js";
import { settleAtMost } from "./lanes.js";

// The worker resolves a task's media inputs before it submits to a vendor: fetched over HTTPS through the guarded
// client (DNS checked, redirects re-checked, size capped per kind), decoded from a data URI or read from the
// tenant's artifacts; each is spooled to a local file as it arrives, sniffed from its first bytes, decoded with
// ffprobe from the file, and streamed into the artifact store. What the service trusts (a video's duration, a
// reference's kind) comes from these decoded bytes, never from the request. Failures carry SPEC.md's codes with
// `param` at the field; a download that failed says why, and is tried again only where that can help
// (fetch-failure.ts).

// The parts of the runtime resolution uses.
export interface MediaResolutionRuntime {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  artifacts: ArtifactStore;
  config: Pick<Config, "mediaFetchTimeoutMs" | "mediaFetchPace" | "mediaInputMaxBytes" | "outboundAllowLoopbackHttp">;
}

function tooLarge(param: string, maxBytes: number): ServiceError {
  return new ServiceError("media_too_large", `The media at ${param} is larger than ${maxBytes} bytes.`, {
    param,
    details: { max_bytes: maxBytes },
  });
}

async function fetchUrl(core: MediaResolutionRuntime, url: string, path: (string | number)[], file: string, maxBytes: number, policy: OutboundPolicy): Promise<Spooled> {
  const param = jsonPointer(path);
  const sink = new SpoolWriter(file);
  try {
    const response = await guardedRequest(policy, {
      method: "GET",
      url,
      timeoutMs: core.config.mediaFetchTimeoutMs,
      pace: core.config.mediaFetchPace,
      maxResponseBytes: maxBytes,
      maxRedirects: 3,
      sink,
    });
    if (response.status >= 200 && response.status < 300) return sink.spooled();
    throw httpStatusFailure(param, response.status);
  } catch (error) {
    sink.destroy();
    if (!(error instanceof OutboundError)) throw error;
    if (error.failure === "too_large") throw tooLarge(param, maxBytes);
    if (error.failure === "refused") throw refusedMediaUrl(param, path, `was refused: ${error.message}`);
    throw exchangeFailure(param, error.failure, error.message);
  }
}

interface Fetched extends Spooled {
  // An artifact the bytes already are (an upload, say), or null when resolution stores them.
  artifactId: string | null;
  // The type a data URI declared, which its bytes must bear out.
  declared: string | null;
  source: Record<string, unknown>;
}

interface SlotWork {
  core: MediaResolutionRuntime;
  tenantId: string;
  taskId: string;
  policy: OutboundPolicy;
  file: string;
}

async function spoolDataUri(dataUri: string, param: string, maxBytes: number, file: string): Promise<Spooled> {
  const decoded = decodeDataUri(dataUri, maxBytes);
  if (!decoded) throw new ServiceError("invalid_media", `The data URI at ${param} is malformed.`, { param });
  if ("tooLarge" in decoded) throw tooLarge(param, maxBytes);
  return spoolBytes(decoded.bytes, file);
}

async function fetchSlot(work: SlotWork, slot: Slot): Promise<Fetched> {
  const { core, tenantId } = work;
  const maxBytes = mediaInputCap(slot.expected, core.config.mediaInputMaxBytes);
  if (isInlineReference(slot.value)) {
    const param = jsonPointer(slot.path);
    const rows = await core.db
      .select({ dataUri: taskInlineMedia.dataUri })
      .from(taskInlineMedia)
      .where(and(eq(taskInlineMedia.taskId, work.taskId), eq(taskInlineMedia.pointer, param)))
      .limit(1);
    if (!rows[0]) throw new ServiceError("invalid_media", `The data URI at ${param} is no longer held; submit the task again.`, { param });
    const spooled = await spoolDataUri(rows[0].dataUri, param, maxBytes, work.file);
    return { ...spooled, artifactId: null, declared: slot.value.content_type, source: { source: "data_uri" } };
  }
  const text = mediaText(slot.value);
  if (text?.startsWith("data:")) {
    const spooled = await spoolDataUri(text, jsonPointer(mediaTextPath(slot)), maxBytes, work.file);
    return { ...spooled, artifactId: null, declared: declaredType(text), source: { source: "data_uri" } };
  }
  if (text !== null) {
    const spooled = await fetchUrl(core, text, mediaTextPath(slot), work.file, maxBytes, work.policy);
    return { ...spooled, artifactId: null, declared: null, source: { source: "url", url: text } };
  }
  const artifactId = (slot.value as { artifact_id: string }).artifact_id;
  const param = jsonPointer([...slot.path, "artifact_id"]);
  const rows = await core.db
    .select({ storageKey: artifacts.storageKey })
    .from(artifacts)
    .where(and(eq(artifacts.id, artifactId), eq(artifacts.tenantId, tenantId)))
    .limit(1);
  const opened = rows[0] ? await core.artifacts.open(rows[0].storageKey) : null;
  if (!opened) throw new ServiceError("artifact_not_found", `No artifact ${artifactId}.`, { param });
  if (opened.size > maxBytes) {
    opened.stream.destroy();
    throw tooLarge(param, maxBytes);
  }
  try {
    const spooled = await spoolStream(opened.stream, work.file, maxBytes);
    return { ...spooled, artifactId, declared: null, source: { source: "artifact" } };
  } catch (error) {
    if (error instanceof SpoolTooLarge) throw tooLarge(param, maxBytes);
    throw error;
  }
}

// A data URI that declares a media type and carries bytes that are not media of that kind is malformed
// (invalid_media). Within a kind the bytes decide: a JPEG labelled image/png is common and harmless, since the
// type is sniffed anyway. A data URI that declares nothing, or a generic type, is judged by its bytes alone.
function contradictsDeclared(declared: string | null, sniffed: SniffedType | null): boolean {
  const kind = declared === null ? null : /^(image|audio|video)\//.exec(declared)?.[1];
  if (!kind) return false;
  // MP4 and QuickTime containers are named by what they hold as often as not (audio/mp4 for a video, or back).
  if (sniffed && (sniffed.format === "mp4" || sniffed.format === "mov" || sniffed.format === "m4a") && kind !== "image") return false;
  return sniffed === null || sniffed.kind !== kind;
}

function typeFailure(fetched: Fetched, sniffed: SniffedType | null, slot: Slot, param: string): ServiceError | null {
  if (contradictsDeclared(fetched.declared, sniffed)) {
    return new ServiceError(
      "invalid_media",
      `The data URI at ${param} declares ${fetched.declared}, but its bytes are ${sniffed ? `${sniffed.kind} (${sniffed.format})` : "not media of any type we recognise"}.`,
      { param, details: { declared: fetched.declared, received: sniffed ? sniffed.contentType : "unknown" } },
    );
  }
  if (!sniffed) {
    return new ServiceError("invalid_media", `The media at ${param} is not ${slot.expected} (its bytes are of no recognised media type).`, {
      param,
      details: { expected_kind: slot.expected, received: "unknown" },
    });
  }
  if (sniffed.kind !== slot.expected) {
    return new ServiceError("unsupported_media_type", `The media at ${param} is ${sniffed.kind} (${sniffed.format}); ${slot.expected} is expected.`, {
      param,
      details: { expected_kind: slot.expected, received: `${sniffed.kind}/${sniffed.format}` },
    });
  }
  return null;
}

async function resolveSlot(work: SlotWork, slot: Slot): Promise<MediaFacts> {
  const { core, tenantId } = work;
  const param = jsonPointer(slot.path);
  const fetched = await fetchSlot(work, slot);
  const sniffed = sniffMediaType(fetched.head);
  const failure = typeFailure(fetched, sniffed, slot, param);
  if (failure || !sniffed) throw failure;
  let probe;
  try {
    probe = await probeMediaFile(fetched.path, fetched.size);
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
    await core.artifacts.putFile(storageKey, fetched.path, fetched);
    await core.db.insert(artifacts).values({
      id: artifactId,
      tenantId,
      taskId: null,
      kind: sniffed.kind,
      contentType: sniffed.contentType,
      byteSize: fetched.size,
      sha256: fetched.sha256,
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
    byteSize: fetched.size,
    codec: probe.codec,
    frameRate: probe.frameRate,
    sampleRate: probe.sampleRate,
  };
}

// At most this many inputs of one job are fetched and probed at once, each spool file removed when its input is
// done: a job's temporary disk and ffprobe processes stay bounded (4 × the input cap) however many references
// (up to 50) it has.
const SLOTS_AT_ONCE = 4;

// Resolves every media input of a task's input; the result is keyed by the field's JSON Pointer. Once every
// input has been tried, the task's data URIs are dropped: they are artifacts now, or the task fails.
export async function resolveMediaInputs(
  core: MediaResolutionRuntime,
  schema: z.ZodType,
  task: { id: string; tenantId: string; input: Record<string, unknown> },
): Promise<Record<string, MediaFacts>> {
  const slots = mediaSlots(schema, task.input);
  const policy: OutboundPolicy = { allowLoopbackHttp: core.config.outboundAllowLoopbackHttp };
  const directory = await spoolDirectory();
  try {
    const settled = await settleAtMost(SLOTS_AT_ONCE, slots.length, async (i) => {
      const file = directory.file(String(i));
      try {
        return await resolveSlot({ core, tenantId: task.tenantId, taskId: task.id, policy, file }, slots[i] as Slot);
      } finally {
        await rm(file, { force: true });
      }
    });
    const rejected = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (rejected && !(rejected.reason instanceof ServiceError)) throw rejected.reason;
    await core.db.delete(taskInlineMedia).where(eq(taskInlineMedia.taskId, task.id));
    if (rejected) throw rejected.reason;
    const facts: Record<string, MediaFacts> = {};
    settled.forEach((s, i) => {
      facts[jsonPointer((slots[i] as Slot).path)] = (s as PromiseFulfilledResult<MediaFacts>).value;
    });
    return facts;
  } finally {
    await directory.dispose();
  }
}
