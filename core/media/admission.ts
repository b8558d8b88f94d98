import type { z } from "zod";
import { and, eq, inArray } from "drizzle-orm";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { artifacts } from "../db/schema/index.js";
import { ServiceError, jsonPointer } from "../errors/index.js";
import { urlRefusal } from "../net/index.js";
import { declaredType } from "./inline.js";
import { mediaInputCap } from "./limits.js";
import { decodeDataUri, mediaSlots, mediaText, mediaTextPath, type MediaKind } from "./slots.js";
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
  config: Pick<Config, "outboundAllowLoopbackHttp" | "mediaInputMaxBytes" | "publicBaseUrl">;
}

// The checks on media inputs that admission can make without fetching anything: a URL's scheme and literal
// address, a data URI's shape and size, an artifact's existence for this tenant. Fetching and decoding happen in
// the worker (core/media/resolve.ts), so a slow third-party server never holds an admission open.
export async function checkMediaAtAdmission(core: MediaAdmissionRuntime, tenantId: string, schema: z.ZodType, input: Record<string, unknown>): Promise<void> {
  const policy = { allowLoopbackHttp: core.config.outboundAllowLoopbackHttp };
  const artifactSlots: { id: string; param: string }[] = [];
  for (const slot of mediaSlots(schema, input)) {
    const text = mediaText(slot.value);
    if (text === null) {
      artifactSlots.push({ id: (slot.value as { artifact_id: string }).artifact_id, param: jsonPointer([...slot.path, "artifact_id"]) });
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
    } else {
      const ownArtifact = ownArtifactId(text, core.config.publicBaseUrl);
      if (ownArtifact) throw ownArtifactUrlRefusal(param, path, ownArtifact);
      const refusal = urlRefusal(text, policy);
      if (refusal) throw refusedMediaUrl(param, path, refusal);
    }
  }
  if (artifactSlots.length === 0) return;
  const found = await core.db
    .select({ id: artifacts.id })
    .from(artifacts)
    .where(and(eq(artifacts.tenantId, tenantId), inArray(artifacts.id, artifactSlots.map((a) => a.id))));
  const known = new Set(found.map((r) => r.id));
  const missing = artifactSlots.find((a) => !known.has(a.id));
  if (missing) throw new ServiceError("artifact_not_found", `No artifact ${missing.id}.`, { param: missing.param });
}
