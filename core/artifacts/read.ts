import { and, asc, eq } from "drizzle-orm";
import { artifacts } from "../db/schema/index.js";
import { ServiceError } from "../errors/index.js";
import type { Core } from "../runtime.js";
import { findTaskForTenant } from "../tasks/repository.js";

// Serves a signed artifact URL: the signature is the permission, no API key is needed.
export async function openSignedArtifact(core: Core, artifactId: string, expires: string, signature: string) {
  const verdict = core.signer.verify(artifactId, expires, signature, core.clock());
  if (verdict === "invalid") throw new ServiceError("forbidden", "This artifact URL's signature is not valid.");
  if (verdict === "expired") {
    throw new ServiceError("forbidden", "This artifact URL has expired; read the task again for a fresh URL.", {
      details: { recovery: { action: "refresh_task" } },
    });
  }
  const rows = await core.db.select().from(artifacts).where(eq(artifacts.id, artifactId)).limit(1);
  const row = rows[0];
  const opened = row ? await core.artifacts.open(row.storageKey) : null;
  if (!row || !opened) throw new ServiceError("artifact_not_found", `No artifact ${artifactId}.`);
  return { contentType: row.contentType, sha256: row.sha256, ...opened };
}

// GET /v1/tasks/{id}/assets: the task's stored artifacts with fresh signed URLs.
export async function listTaskAssets(core: Core, tenantId: string, taskId: string) {
  const task = await findTaskForTenant(core.db, tenantId, taskId);
  if (!task) throw new ServiceError("task_not_found", `No task ${taskId}.`, { details: { task_id: taskId } });
  const rows = await core.db
    .select()
    .from(artifacts)
    .where(and(eq(artifacts.taskId, taskId), eq(artifacts.tenantId, tenantId)))
    .orderBy(asc(artifacts.id));
  const now = core.clock();
  return {
    object: "list" as const,
    data: rows.map((a) => {
      const signed = core.signer.sign(a.id, now);
      return {
        object: "artifact" as const,
        artifact_id: a.id,
        kind: a.kind,
        content_type: a.contentType,
        byte_size: a.byteSize,
        sha256: a.sha256,
        url: signed.url,
        url_expires_at: signed.expiresAt.toISOString(),
        created_at: a.createdAt.toISOString(),
      };
    }),
  };
}
