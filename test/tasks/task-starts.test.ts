import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { transitionsDb } from "../../core/db/client.js";
import { preparingStatements } from "../../core/db/prepared-statements.js";
import { TaskStarts } from "../../core/tasks/task-starts.js";
import { executeTask } from "../../core/tasks/execute.js";
import { balance, startHarness, type Harness } from "../support/harness.js";
import { admitEnhancement } from "../support/enhancement.js";

// A worker's execute jobs that start in one turn start their tasks in one statement (core/tasks/task-starts.ts);
// each job still learns only whether its own task started. drizzle's statements are prepared on their
// connection where the client pipelines (core/db/prepared-statements.ts), in transactions too.

let h: Harness;
// The starts' own prepared, pipelining client, as a worker has it (core/db/client.ts, `transitions`).
let transitionsClient: postgres.Sql;
beforeAll(async () => {
  h = await startHarness({ worker: false });
  transitionsClient = postgres(h.databaseUrl, { max: 2, onnotice: () => {} });
});
afterAll(async () => {
  await transitionsClient?.end();
  await h?.close();
});

const queuedTask = () => admitEnhancement(h);

describe("starting tasks", () => {
  it("starts the tasks of one turn together, answering each its own row, and leaves one that cannot start alone", async () => {
    const [first, second, third, cancelled] = [await queuedTask(), await queuedTask(), await queuedTask(), await queuedTask()];
    expect((await h.request("POST", `/v1/tasks/${cancelled}/cancel`, { body: {} })).body.status).toBe("canceled");
    let clockReads = 0;
    const starting = new TaskStarts(
      transitionsDb(transitionsClient),
      () => h.core.providers.withAdapters(),
      () => {
        clockReads += 1;
        return new Date();
      },
    );
    const ids = [first, second, third, cancelled, "task_that_does_not_exist"] as string[];
    const started = await Promise.all(ids.map((id, i) => starting.start({ taskId: id, jobId: `job-${i}`, deferrals: 0 })));

    const rows = started.map((outcome) => (outcome?.kind === "started" ? outcome.row : null));
    expect(rows.map((row) => row?.id ?? null)).toEqual([first, second, third, null, null]);
    for (const row of rows.slice(0, 3)) expect(row).toMatchObject({ status: "running", attempts: 1 });
    // One statement, one start time for the group.
    expect(clockReads).toBe(1);
    expect(new Set(rows.slice(0, 3).map((row) => row?.startedAt?.toISOString())).size).toBe(1);
    expect((await h.request("GET", `/v1/tasks/${cancelled}`)).body.status).toBe("canceled");

    // A task found running starts again, without counting another attempt, for the job that started it (its
    // worker died), and for no other.
    const again = await starting.start({ taskId: first as string, jobId: "job-0", deferrals: 0 });
    expect(again).toMatchObject({ kind: "started", row: { id: first, status: "running", attempts: 1 } });
    expect(await starting.start({ taskId: first as string, jobId: "job-9", deferrals: 0 })).toBeNull();
  });

  it("fails a task whose deadline passed before its job started, with model_timeout and its hold released", async () => {
    const before = await balance(h);
    const late = await queuedTask();
    await h.core.db.execute(sql`update tasks set deadline_at = now() - interval '1 second' where id = ${late}`);
    await executeTask(h.core, { taskId: late, jobId: "job-late", deferrals: 0 }, new AbortController().signal);
    const task = (await h.request("GET", `/v1/tasks/${late}`)).body;
    expect(task).toMatchObject({ status: "failed", error: { code: "model_timeout" } });
    expect(await balance(h)).toEqual(before);
  });

  it("prepares drizzle's statements with parameters on a pipelining client, in transactions too", async () => {
    const client = postgres(h.databaseUrl, { max: 2, onnotice: () => {} });
    try {
      const db = drizzle(preparingStatements(client));
      const prepared = await db.transaction(async (tx) => {
        await tx.execute(sql`select ${1}::int as prepared_marker`);
        return tx.execute<{ statement: string }>(sql`select statement from pg_prepared_statements where statement like ${"%prepared_marker%"}`);
      });
      expect(prepared.length).toBeGreaterThan(0);
      // Transactions begun while prepared statements are pipelined on the same connections all commit.
      const work = Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0 ? db.execute(sql`select ${i}::int as n`) : db.transaction((tx) => tx.execute(sql`select ${i}::int as n`)),
      );
      expect((await Promise.allSettled(work)).filter((outcome) => outcome.status === "rejected")).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it("refuses to prepare on a client without pipelining, whose transactions postgres.js would fail", () => {
    const client = postgres(h.databaseUrl, { max: 1, max_pipeline: 1 } as postgres.Options<Record<string, postgres.PostgresType>>);
    expect(() => preparingStatements(client)).toThrow(/UNSAFE_TRANSACTION/);
  });
});
