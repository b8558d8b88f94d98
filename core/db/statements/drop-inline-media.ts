import { sql } from "drizzle-orm";
import type { Db } from "../client.js";

// Retention's: the data URIs of tasks older than their tenant's retention (its own, else `defaultDays`) that no
// worker stored (a task canceled while queued keeps them until then), at most `limit`; the number dropped.
export async function dropInlineMedia(db: Db, now: Date, defaultDays: number, limit: number): Promise<number> {
  const dropped = await db.execute(sql`
    delete from task_inline_media m
     using (
       select m.task_id, m.pointer
         from task_inline_media m
         join tasks t on t.id = m.task_id
         left join tenant_retention r on r.tenant_id = t.tenant_id
        where t.created_at < ${now.toISOString()}::timestamptz - make_interval(days => coalesce(r.artifact_days, ${defaultDays}))
        limit ${limit}
     ) due
     where m.task_id = due.task_id and m.pointer = due.pointer
    returning m.task_id`);
  return dropped.length;
}
