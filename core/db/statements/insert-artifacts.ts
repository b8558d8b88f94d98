import { sql } from "drizzle-orm";
import type { Tx } from "../client.js";

// An output a worker stored for its task (core/providers/output-storage.ts), before the task's ending records it.
export interface NewArtifact {
  id: string;
  kind: string;
  contentType: string;
  byteSize: number;
  sha256: string;
  storageKey: string;
  media: Record<string, unknown>;
}

// In a succeeding task's ending (core/tasks/finish.ts): the rows of its stored outputs, which its envelope and
// their signed URLs read. It answers no rows.
export async function insertArtifacts(tx: Tx, tenantId: string, taskId: string, stored: readonly NewArtifact[], createdAt: Date): Promise<void> {
  const at = createdAt.toISOString();
  const rows = stored.map(
    (a) => sql`(${a.id}, ${tenantId}, ${taskId}, ${a.kind}, ${a.contentType}, ${a.byteSize}, ${a.sha256}, ${a.storageKey}, ${JSON.stringify(a.media)}::jsonb, ${at}::timestamptz)`,
  );
  await tx.execute(sql`
    insert into artifacts (id, tenant_id, task_id, kind, content_type, byte_size, sha256, storage_key, media, created_at)
    values ${sql.join(rows, sql`, `)}`);
}
