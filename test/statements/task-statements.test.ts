import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transitionsDb, type TransitionsDb } from "../../core/db/client.js";
import { expireSlots } from "../../core/db/statements/expire-slots.js";
import { insertArtifacts } from "../../core/db/statements/insert-artifacts.js";
import { overdueTasks } from "../../core/db/statements/overdue-tasks.js";
import { readTasksById } from "../../core/db/statements/read-tasks.js";
import { UnexpectedRow } from "../../core/db/statements/row-parsing.js";
import { startTasks } from "../../core/db/statements/start-tasks.js";
import { transitionTask } from "../../core/db/statements/transition-task.js";
import { taskRowOf } from "../../core/db/task-rows.js";
import { START_POLICY } from "../../core/tasks/tenant-slots.js";
import { startHarness, type Harness } from "../support/harness.js";
import { admitEnhancement } from "../support/enhancement.js";

// The task statements of core/db/statements/, each run on the executor its kind names, against a database cloned
// from the migrated template, with tasks admitted through the API.

let h: Harness;
let transitionsClient: postgres.Sql;
let transitions: TransitionsDb;
beforeAll(async () => {
  h = await startHarness({ worker: false, credits: "100" });
  transitionsClient = postgres(h.databaseUrl, { max: 2, onnotice: () => {} });
  transitions = transitionsDb(transitionsClient);
});
afterAll(async () => {
  await transitionsClient?.end();
  await h?.close();
});

const queuedTask = () => admitEnhancement(h);

const families = () => h.core.providers.withAdapters();

describe("start-tasks", () => {
  it("starts the oldest waiting tasks for the jobs that ask, whichever task each was enqueued for, and leaves the rest", async () => {
    const [older, newer] = [await queuedTask(), await queuedTask()];
    // Asked by three jobs, the first enqueued for the newer task: the two waiting tasks start, oldest first.
    const requests = [newer, older, "task_missing"].map((taskId, i) => ({ taskId, jobId: `start-job-${i}`, deferrals: 0 }));
    const rows = await startTasks(transitions, requests, families(), START_POLICY, new Date());
    expect(rows.map((row) => ({ askedBy: row.askedBy, kind: row.kind, id: row.kind === "started" ? row.row.id : null }))).toEqual([
      { askedBy: "start-job-0", kind: "started", id: older },
      { askedBy: "start-job-1", kind: "started", id: newer },
      { askedBy: "start-job-2", kind: "none", id: null },
    ]);
    const started = rows[0];
    expect(started?.kind === "started" && started.row).toMatchObject({ id: older, status: "running", attempts: 1, executionToken: "start-job-0", tenantSlot: null });
    expect(started?.kind === "started" && started.row.tenantSlotUntil).toBeInstanceOf(Date);
    // The job a task names starts it again (its worker died); a family this process has no adapter for starts nothing.
    expect(await startTasks(transitions, [{ taskId: older, jobId: "start-job-0", deferrals: 0 }], families(), START_POLICY, new Date())).toMatchObject([
      { kind: "started", row: { id: older, attempts: 1 } },
    ]);
    expect(await startTasks(transitions, [{ taskId: older, jobId: "start-job-0", deferrals: 0 }], [], START_POLICY, new Date())).toEqual([{ askedBy: "start-job-0", kind: "none" }]);
  });
});

describe("transition-task", () => {
  it("applies a transition from its own statuses only, with the changes it carries", async () => {
    const id = await queuedTask();
    expect(await transitionTask(h.core.db, id, "advance", { providerRef: "vendor-job" })).toBeNull();
    const canceled = await h.core.db.transaction((tx) => transitionTask(tx, id, "cancelQueued", { cancelReason: "no longer needed" }));
    expect(canceled).toMatchObject({ id, status: "canceled", cancelReason: "no longer needed" });
    expect(await transitionTask(h.core.db, id, "fail", {})).toBeNull();
  });
});

describe("read-tasks", () => {
  it("answers the tasks found by id, parsed, and leaves out ids without one", async () => {
    const id = await queuedTask();
    const found = await readTasksById(h.core.reads, [id, "task_missing"]);
    expect([...found.keys()]).toEqual([id]);
    expect(found.get(id)).toMatchObject({ id, tenantId: h.tenantId, status: "queued", attempts: 0 });
    expect(found.get(id)?.createdAt).toBeInstanceOf(Date);
  });

  it("refuses a row without a column of the table, or with a status the state machine does not know", async () => {
    const [raw] = await h.core.reads<Record<string, unknown>[]>`select * from tasks limit 1`;
    const { deadline_at: _, ...incomplete } = raw as Record<string, unknown>;
    expect(() => taskRowOf(incomplete)).toThrow(UnexpectedRow);
    expect(() => taskRowOf(incomplete)).toThrow(/deadline_at/);
    expect(() => taskRowOf({ ...raw, status: "paused" })).toThrow(/status/);
  });
});

describe("overdue-tasks", () => {
  it("finds open tasks past their deadline, at most the limit", async () => {
    const [late, later, onTime] = [await queuedTask(), await queuedTask(), await queuedTask()];
    await h.core.db.execute(sql`update tasks set deadline_at = now() - interval '1 minute' where id in (${late}, ${later})`);
    const overdue = await overdueTasks(h.core.db, new Date(), 10);
    expect(overdue.map((task) => task.id)).toEqual(expect.arrayContaining([late, later]));
    expect(overdue.map((task) => task.id)).not.toContain(onTime);
    expect(await overdueTasks(h.core.db, new Date(), 1)).toHaveLength(1);
  });
});

describe("expire-slots", () => {
  it("frees the slots whose lease is over, and only those", async () => {
    const [expired, held] = [await queuedTask(), await queuedTask()];
    await h.core.db.execute(sql`update tasks set tenant_slot = 3, tenant_slot_until = now() - interval '1 second' where id = ${expired}`);
    await h.core.db.execute(sql`update tasks set tenant_slot = 4, tenant_slot_until = now() + interval '1 hour' where id = ${held}`);
    expect(await expireSlots(h.core.db, new Date())).toBe(1);
    const slots = await h.core.db.execute<{ id: string; tenant_slot: number | null }>(sql`select id, tenant_slot from tasks where id in (${expired}, ${held}) order by tenant_slot nulls first`);
    expect(slots.map((row) => [row.id, row.tenant_slot])).toEqual([
      [expired, null],
      [held, 4],
    ]);
  });
});

describe("insert-artifacts", () => {
  it("stores a succeeding task's outputs in its ending's transaction on the transitions client", async () => {
    const taskId = await queuedTask();
    const stored = [1, 2].map((n) => ({
      id: `art_statement_${n}`,
      kind: "image",
      contentType: "image/png",
      byteSize: 1000 * n,
      sha256: `sha-${n}`,
      storageKey: `tasks/${taskId}/${n}.png`,
      media: { width: 64 * n, height: 64 },
    }));
    const at = new Date("2026-11-27T12:00:00.000Z");
    await transitions.transaction((tx) => insertArtifacts(tx, h.tenantId, taskId, stored, at));
    const rows = await h.core.db.query.artifacts.findMany({ where: (artifact, { eq }) => eq(artifact.taskId, taskId), orderBy: (artifact, { asc }) => asc(artifact.id) });
    expect(rows.map(({ id, tenantId, byteSize, media, createdAt, expiredAt }) => ({ id, tenantId, byteSize, media, createdAt, expiredAt }))).toEqual(
      stored.map((a) => ({ id: a.id, tenantId: h.tenantId, byteSize: a.byteSize, media: a.media, createdAt: at, expiredAt: null })),
    );
  });
});
