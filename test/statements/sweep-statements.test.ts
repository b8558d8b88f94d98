import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteExpiredKeys } from "../../core/db/statements/delete-expired-keys.js";
import { deleteOldTaskEvents } from "../../core/db/statements/delete-old-task-events.js";
import { dropInlineMedia } from "../../core/db/statements/drop-inline-media.js";
import { dueArtifacts } from "../../core/db/statements/due-artifacts.js";
import { markArtifactsExpired } from "../../core/db/statements/mark-artifacts-expired.js";
import { startHarness, type Harness } from "../support/harness.js";
import { admitEnhancement } from "../support/enhancement.js";

// The sweep's and retention's statements of core/db/statements/ on the shared pool, against a database cloned from
// the template (core/tasks/sweep.ts, core/artifacts/retention.ts).

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: false, credits: "100" });
});
afterAll(async () => h?.close());

const admitted = (idempotencyKey?: string) => admitEnhancement(h, idempotencyKey === undefined ? {} : { idempotencyKey });

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await h.core.db.execute<{ n: number }>(query);
  return row?.n ?? 0;
}

describe("delete-expired-keys", () => {
  it("drops the idempotency keys past their window and keeps the live ones", async () => {
    const [expired, live] = [randomUUID(), randomUUID()];
    await admitted(expired);
    await admitted(live);
    await h.core.db.execute(sql`update idempotency_keys set expires_at = now() - interval '1 second' where key = ${expired}`);
    expect(await deleteExpiredKeys(h.core.db, new Date(), 100)).toBe(1);
    expect(await count(sql`select count(*)::int as n from idempotency_keys where key in (${expired}, ${live})`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from idempotency_keys where key = ${live}`)).toBe(1);
  });
});

describe("delete-old-task-events", () => {
  it("drops the task events recorded before the time given", async () => {
    const [old, recent] = [await admitted(), await admitted()];
    // A change of progress records an event (migrations/0008).
    for (const percent of [5, 10]) {
      await h.core.db.execute(sql`update tasks set progress = jsonb_build_object('percent', ${percent}::int) where id in (${old}, ${recent})`);
    }
    expect(await count(sql`select count(*)::int as n from task_events where task_id = ${recent}`)).toBeGreaterThan(0);
    await h.core.db.execute(sql`update task_events set created_at = now() - interval '2 days' where task_id = ${old}`);
    const events = await count(sql`select count(*)::int as n from task_events where task_id = ${old}`);
    expect(events).toBeGreaterThan(1);
    // A batch deletes at most its limit, the oldest first; the next takes the rest.
    expect(await deleteOldTaskEvents(h.core.db, new Date(Date.now() - 24 * 60 * 60 * 1000), 1)).toBe(1);
    expect(await count(sql`select count(*)::int as n from task_events where task_id = ${old}`)).toBe(events - 1);
    expect(await deleteOldTaskEvents(h.core.db, new Date(Date.now() - 24 * 60 * 60 * 1000), 100)).toBe(events - 1);
    expect(await count(sql`select count(*)::int as n from task_events where task_id = ${old}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from task_events where task_id = ${recent}`)).toBeGreaterThan(0);
  });
});

describe("due-artifacts and mark-artifacts-expired", () => {
  it("find the oldest artifacts past retention, at most the limit, and mark them and their task expired", async () => {
    const taskId = await admitted();
    for (const [id, age] of [["art_oldest", 40], ["art_older", 35], ["art_recent", 1]] as const) {
      await h.core.db.execute(sql`
        insert into artifacts (id, tenant_id, task_id, kind, content_type, byte_size, sha256, storage_key, created_at)
        values (${id}, ${h.tenantId}, ${taskId}, 'image', 'image/png', 1, 'sha', ${`key/${id}`}, now() - make_interval(days => ${age}))`);
    }
    expect(await dueArtifacts(h.core.db, new Date(), 30, 1)).toEqual([{ id: "art_oldest", storageKey: "key/art_oldest" }]);
    const due = await dueArtifacts(h.core.db, new Date(), 30, 10);
    expect(due.map((artifact) => artifact.id)).toEqual(["art_oldest", "art_older"]);
    await markArtifactsExpired(h.core.db, due.map((artifact) => artifact.id), new Date());
    expect(await dueArtifacts(h.core.db, new Date(), 30, 10)).toEqual([]);
    expect(await count(sql`select count(*)::int as n from artifacts where expired_at is not null`)).toBe(2);
    expect(await count(sql`select count(*)::int as n from tasks where id = ${taskId} and artifacts_expired_at is not null`)).toBe(1);
  });
});

describe("drop-inline-media", () => {
  it("drops the data URIs of tasks past retention, at most the limit, and counts them", async () => {
    const [old, recent] = [await admitted(), await admitted()];
    await h.core.db.execute(sql`
      insert into task_inline_media (task_id, pointer, data_uri)
      values (${old}, '/image', 'data:,a'), (${old}, '/mask', 'data:,b'), (${recent}, '/image', 'data:,c')`);
    await h.core.db.execute(sql`update tasks set created_at = now() - interval '40 days' where id = ${old}`);
    expect(await dropInlineMedia(h.core.db, new Date(), 30, 1)).toBe(1);
    expect(await dropInlineMedia(h.core.db, new Date(), 30, 10)).toBe(1);
    expect(await dropInlineMedia(h.core.db, new Date(), 30, 10)).toBe(0);
    expect(await count(sql`select count(*)::int as n from task_inline_media where task_id = ${recent}`)).toBe(1);
  });
});
