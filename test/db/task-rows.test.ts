import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tasks } from "../../core/db/schema/index.js";
import { taskRecordOf, taskRowOf } from "../../core/db/task-rows.js";
import { startHarness, type Harness } from "../support/harness.js";

// Task rows read by hand-written statements are mapped by drizzle's own column mappers (docs/workarounds.md #9):
// they must equal what drizzle's query builder reads, column for column, whatever migrations add.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe("task rows from hand-written statements", () => {
  it("map to exactly what drizzle's builder reads, and back to the record jsonb_populate_recordset takes", async () => {
    const created = await h.request("POST", "/v1/audio/speech", {
      body: { voice: "en_female_aria", input: "Rows.", metadata: { k: "v" } },
      idempotencyKey: randomUUID(),
    });
    expect(created.status).toBe(202);
    const id = created.body.task_id as string;
    const [raw] = await h.core.db.execute<Record<string, unknown>>(sql`select * from tasks where id = ${id}`);
    const [built] = await h.core.db.select().from(tasks).where(eq(tasks.id, id));
    expect(taskRowOf(raw!)).toEqual(built);
    const [repopulated] = await h.core.db.execute<Record<string, unknown>>(
      sql`select * from jsonb_populate_record(null::tasks, ${JSON.stringify(taskRecordOf(built!))}::jsonb)`,
    );
    expect(taskRowOf(repopulated!)).toEqual(built);
  });
});
