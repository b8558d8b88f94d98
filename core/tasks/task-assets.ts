import { and, asc, eq } from "drizzle-orm";
import type { ArtifactReadRuntime } from "../artifacts/read.js";
import type { ReadSql } from "../db/client.js";
import { artifacts } from "../db/schema/index.js";
import { ServiceError } from "../errors/index.js";
import { readTaskForTenant } from "./task-reads.js";

// GET /v1/tasks/{id}/assets: the task's stored artifacts with fresh signed URLs.
export async function listTaskAssets(core: Pick<ArtifactReadRuntime, "db" | "clock" | "signer"> & { reads: ReadSql }, tenantId: string, taskId: string) {
  const task = await readTaskForTenant(core.reads, tenantId, taskId);
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
