import { sql } from "drizzle-orm";
import type { Executor } from "../client.js";

// The sweep's: frees the workers tasks hold (core/tasks/tenant-slots.ts) whose jobs never gave them back, their
// lease over; the number freed.
export async function expireSlots(db: Executor, now: Date): Promise<number> {
  const rows = await db.execute(sql`
    update tasks set tenant_slot = null, tenant_slot_until = null
    where tenant_slot_until <= ${now.toISOString()}::timestamptz
    returning id`);
  return rows.length;
}
