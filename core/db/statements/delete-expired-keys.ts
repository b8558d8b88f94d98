import { sql } from "drizzle-orm";
import type { Db } from "../client.js";

// The sweep's: idempotency keys past their window (core/idempotency/claim.ts) are dropped. It answers no rows.
export async function deleteExpiredKeys(db: Db, now: Date): Promise<void> {
  await db.execute(sql`delete from idempotency_keys where expires_at <= ${now.toISOString()}`);
}
