import { buffer } from "node:stream/consumers";
import { and, eq } from "drizzle-orm";
import { artifacts } from "../db/schema/index.js";
import { ServiceError } from "../errors/index.js";
import type { ArtifactReadRuntime } from "./read.js";
import { artifactExpired } from "./retention.js";

export interface TenantArtifact {
  artifactId: string;
  kind: string;
  contentType: string;
  byteSize: number;
  // Null when the artifact is larger than the caller's limit: it is then read from its signed URL.
  bytes: Buffer | null;
  url: string;
  urlExpiresAt: string;
}

// One of the tenant's own artifacts by id, with its bytes when they fit `maxBytes` (MCP's resources/read and
// thumbnails, for hosts that cannot reach the REST host); another tenant's artifact is as unknown as a missing one.
export async function readTenantArtifact(core: Pick<ArtifactReadRuntime, "db" | "clock" | "signer" | "artifacts">, tenantId: string, artifactId: string, maxBytes: number): Promise<TenantArtifact> {
  const rows = await core.db
    .select()
    .from(artifacts)
    .where(and(eq(artifacts.id, artifactId), eq(artifacts.tenantId, tenantId)))
    .limit(1);
  const row = rows[0];
  if (!row) throw new ServiceError("artifact_not_found", `No artifact ${artifactId}.`, { details: { artifact_id: artifactId } });
  if (row.expiredAt) throw artifactExpired(artifactId, row.expiredAt);
  const signed = core.signer.sign(row.id, core.clock());
  const found = { artifactId: row.id, kind: row.kind, contentType: row.contentType, byteSize: row.byteSize, url: signed.url, urlExpiresAt: signed.expiresAt.toISOString() };
  if (row.byteSize > maxBytes) return { ...found, bytes: null };
  const opened = await core.artifacts.open(row.storageKey);
  if (!opened) throw new ServiceError("artifact_not_found", `The bytes of artifact ${artifactId} are gone.`, { details: { artifact_id: artifactId } });
  return { ...found, bytes: await buffer(opened.stream) };
}
