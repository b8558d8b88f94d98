import type { z } from "zod";
import { and, eq, inArray } from "drizzle-orm";
import { artifactExpired } from "../artifacts/retention.js";
import type { ArtifactStore } from "../artifacts/store.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { artifacts } from "../db/schema/index.js";
import { ServiceError, jsonPointer } from "../errors/index.js";
import { urlRefusal } from "../net/index.js";
import type { KnownInput } from "../selection/input-limits.js";
import { artifactFacts, dataUriFacts } from "./admission-probe.js";
import { declaredType } from "./inline.js";
import { knownInput } from "./known-facts.js";
import { settleAtMost } from "./lanes.js";
import { mediaInputCap } from "./limits.js";
import { decodeDataUri, mediaSlots, mediaText, mediaTextPath, type MediaKind, type Slot } from "./slots.js";
import { ownArtifactId, ownArtifactUrlRefusal, refusedMediaUrl } from "./url-refusal.js";

// A data URI that says it is media of another kind than its field takes is refused before anything is stored
// (the worker still checks the bytes). MP4 containers are named audio/mp4 or video/mp4 for either, so a container
// type never counts against the field.
function declaredKindRefusal(dataUri: string, expected: MediaKind, param: string): ServiceError | null {
  const declared = declaredType(dataUri);
  const kind = declared?.split("/")[0];
  const container = declared === "audio/mp4" || declared === "video/mp4" || declared === "video/quicktime";
  if (!declared || (kind !== "image" && kind !== "audio" && kind !== "video") || kind === expected || (container && expected !== "image")) {
    return null;
  }
  return new ServiceError("unsupported_media_type", `The data URI at ${param} is ${declared}; ${expected} is expected.`, {
    param,
    details: { expected_kind: expected, received: declared },
  });
}

// The parts of the runtime the admission checks use.
export interface MediaAdmissionRuntime {
  db: Db;
  artifacts: ArtifactStore;
  config: Pick<Config, "outboundAllowLoopbackHttp" | "mediaInputMaxBytes" | "publicBaseUrl">;
}

// At most this many inputs of one request are probed at once (an ffprobe process each).
const PROBES_AT_ONCE = 4;

// The checks on media inputs that admission can make without fetching anything: a URL's scheme and literal
// address, a data URI's shape and size, an artifact's existence for this tenant. Fetching happens in the worker
// (core/media/resolve.ts), so a slow third-party server never holds an admission open. The inputs already in hand
// (data URIs, artifacts) are probed, and their facts returned for selection to check each model's input limits.
export async function checkMediaAtAdmission(core: MediaAdmissionRuntime, tenantId: string, schema: z.ZodType, input: Record<string, unknown>): Promise<KnownInput[]> {
  const policy = { allowLoopbackHttp: core.config.outboundAllowLoopbackHttp };
  const artifactSlots: { id: string; param: string; slot: Slot }[] = [];
  const inline: { slot: Slot; bytes: Buffer }[] = [];
  for (const slot of mediaSlots(schema, input)) {
    const text = mediaText(slot.value);
    if (text === null) {
      artifactSlots.push({ id: (slot.value as { artifact_id: string }).artifact_id, param: jsonPointer([...slot.path, "artifact_id"]), slot });
      continue;
    }
    const path = mediaTextPath(slot);
    const param = jsonPointer(path);
    if (text.startsWith("data:")) {
      const maxBytes = mediaInputCap(slot.expected, core.config.mediaInputMaxBytes);
      const decoded = decodeDataUri(text, maxBytes);
      if (!decoded) throw new ServiceError("invalid_media", `The data URI at ${param} is malformed.`, { param });
      if ("tooLarge" in decoded) {
        throw new ServiceError("media_too_large", `The media at ${param} is larger than ${maxBytes} bytes.`, {
          param,
          details: { max_bytes: maxBytes },
        });
      }
      const refusal = declaredKindRefusal(text, slot.expected, jsonPointer(slot.path));
      if (refusal) throw refusal;
      inline.push({ slot, bytes: decoded.bytes });
    } else {
      const ownArtifact = ownArtifactId(text, core.config.publicBaseUrl);
      if (ownArtifact) throw ownArtifactUrlRefusal(param, path, ownArtifact);
      const refusal = urlRefusal(text, policy);
      if (refusal) throw refusedMediaUrl(param, path, refusal);
    }
  }
  const rows =
    artifactSlots.length === 0
      ? []
      : await core.db
          .select({ id: artifacts.id, kind: artifacts.kind, byteSize: artifacts.byteSize, media: artifacts.media, storageKey: artifacts.storageKey, expiredAt: artifacts.expiredAt })
          .from(artifacts)
          .where(and(eq(artifacts.tenantId, tenantId), inArray(artifacts.id, artifactSlots.map((a) => a.id))));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = artifactSlots.find((a) => !byId.has(a.id));
  if (missing) throw new ServiceError("artifact_not_found", `No artifact ${missing.id}.`, { param: missing.param });
  // An input whose bytes retention deleted is refused here, before anything is held, not by the worker later.
  for (const slot of artifactSlots) {
    const expiredAt = byId.get(slot.id)?.expiredAt;
    if (expiredAt) throw artifactExpired(slot.id, expiredAt, slot.param);
  }

  const probes: { slot: Slot; facts: () => ReturnType<typeof dataUriFacts> }[] = [
    ...inline.map(({ slot, bytes }) => ({ slot, facts: () => dataUriFacts(bytes, slot.expected) })),
    ...artifactSlots.map(({ id, slot }) => ({ slot, facts: () => artifactFacts(core, byId.get(id) as NonNullable<ReturnType<typeof byId.get>>, slot.expected) })),
  ];
  const settled = await settleAtMost(PROBES_AT_ONCE, probes.length, (i) => (probes[i] as (typeof probes)[number]).facts());
  const known: KnownInput[] = [];
  settled.forEach((result, i) => {
    if (result.status === "rejected") throw result.reason;
    if (result.value) known.push(knownInput((probes[i] as (typeof probes)[number]).slot, result.value));
  });
  return known;
}
