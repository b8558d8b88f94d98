import type { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { artifacts } from "../db/schema/index.js";
import { ServiceError } from "../errors/index.js";
import { answerArtifact, type ConditionalHeaders } from "./http-response.js";
import { artifactExpired } from "./retention.js";
import type { ArtifactUrlSigner } from "./signed-url.js";
import type { ArtifactStore } from "./store.js";

// The parts of the runtime that reading artifacts uses.
export interface ArtifactReadRuntime {
  db: Db;
  clock: Clock;
  signer: ArtifactUrlSigner;
  artifacts: ArtifactStore;
}

// Serves a signed artifact URL: the signature is the permission, no API key is needed. The answer (status,
// headers, which bytes) follows from the artifact's stored facts and the request's conditional and Range headers;
// the store is opened only when bytes are to be sent, and only for the range asked.
export async function openSignedArtifact(
  core: Pick<ArtifactReadRuntime, "db" | "clock" | "signer" | "artifacts">,
  artifactId: string,
  expires: string,
  signature: string,
  request: ConditionalHeaders & { method: "GET" | "HEAD" },
): Promise<{ status: number; headers: Record<string, string>; stream: Readable | null }> {
  const verdict = core.signer.verify(artifactId, expires, signature, core.clock());
  if (verdict === "invalid") throw new ServiceError("forbidden", "This artifact URL's signature is not valid.");
  const rows = await core.db.select().from(artifacts).where(eq(artifacts.id, artifactId)).limit(1);
  const row = rows[0];
  // Before the URL's own expiry: a fresh URL would not bring the bytes back, so the caller is told that instead.
  if (row?.expiredAt) throw artifactExpired(artifactId, row.expiredAt);
  if (verdict === "expired") {
    throw new ServiceError("forbidden", "This artifact URL has expired; read the task again for a fresh URL.", {
      details: { recovery: { action: "refresh_task" } },
    });
  }
  if (!row) throw new ServiceError("artifact_not_found", `No artifact ${artifactId}.`);
  const answer = answerArtifact({ artifactId, contentType: row.contentType, byteSize: row.byteSize, sha256: row.sha256, createdAt: row.createdAt }, request);
  if (request.method === "HEAD" || answer.body === null) return { status: answer.status, headers: answer.headers, stream: null };
  const opened = await core.artifacts.open(row.storageKey, answer.body.range);
  if (!opened) throw new ServiceError("artifact_not_found", `No artifact ${artifactId}.`);
  return { status: answer.status, headers: answer.headers, stream: opened.stream };
}
