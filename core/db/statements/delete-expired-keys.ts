import { sql } from "drizzle-orm";
import type { Db } from "../client.js";
import { integer } from "./row-parsing.js";

const STATEMENT = "delete-expired-keys";

// The sweep's: at most `limit` idempotency keys past their window (core/idempotency/claim.ts) are dropped, the
// oldest first by idempotency_keys_expires_idx, so one statement stays short whatever the backlog. Answers how
// many went.
export async function deleteExpiredKeys(db: Db, now: Date, limit: number): Promise<number> {
  const rows = await db.execute<Record<string, unknown>>(sql`
    with gone as (
      delete from idempotency_keys
       where ctid = any(array(select ctid from idempotency_keys where expires_at <= ${now.toISOString()} order by expires_at limit ${limit}))
      returning 1)
    select count(*)::int as deleted from gone`);
  return rows[0] ? integer(rows[0], "deleted", STATEMENT) : 0;
}
