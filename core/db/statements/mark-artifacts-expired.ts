import { sql } from "drizzle-orm";
import type { Db } from "../client.js";

// Retention's batch, once the artifacts' bytes are deleted from the store: their rows marked expired (their URLs
// answer 410), and so are the tasks they belong to (their envelopes say so). It answers no rows.
export async function markArtifactsExpired(db: Db, artifactIds: readonly string[], now: Date): Promise<void> {
  await db.execute(sql`
    with expired as (
      update artifacts set expired_at = ${now.toISOString()}
       where id in (select jsonb_array_elements_text(${JSON.stringify(artifactIds)}::jsonb)) and expired_at is null
      returning task_id
    )
    update tasks set artifacts_expired_at = ${now.toISOString()}
     where id in (select task_id from expired where task_id is not null) and artifacts_expired_at is null`);
}
