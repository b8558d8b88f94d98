import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pipelinedTransaction } from "../../core/db/pipelined-transaction.js";
import { admissionConnections, type AdmissionTx, type DirectSql } from "../../core/db/client.js";
import { oneStatement } from "../../core/db/one-statement.js";
import { registerJobName } from "../../core/db/statements/register-job-name.js";
import { announceJobs, insertJobs } from "../../core/db/statements/admit-tasks.js";
import type { JobName } from "../../core/db/statements/add-job.js";
import { createTestDatabase, type TestDatabase } from "../support/databases.js";

// Admission adds its jobs with one INSERT into graphile-worker's job table instead of graphile_worker.add_jobs
// (core/db/statements/add-job.ts, docs/workarounds.md). These hold the two to the same result, so a graphile-worker
// upgrade that changes its table or its function's defaults fails here rather than in production.

let database: TestDatabase;
let sql: DirectSql;
beforeAll(async () => {
  database = await createTestDatabase();
  sql = admissionConnections(postgres(database.url, { max: 2, onnotice: () => {} }));
});
afterAll(async () => {
  await sql?.end();
  await database?.drop();
});

// A job as a worker would see it, without what differs between any two jobs (id, payload, times).
const COMPARED = `t.identifier, j.job_queue_id, j.priority, j.attempts, j.max_attempts, j.last_error, j.key, j.locked_at,
  j.locked_by, j.revision, j.flags, j.is_available, j.run_at <= now() as runnable`;

async function jobsOf(marker: string) {
  return sql.unsafe(
    `select ${COMPARED}, j.payload::text as payload from graphile_worker._private_jobs j
       join graphile_worker._private_tasks t on t.id = j.task_id
      where j.payload->>'marker' = $1 order by j.id`,
    [marker],
  );
}

// Jobs added as an admission batch adds them: the name registered, then the insert and its announcement in the
// transaction's write statement.
async function addJobs(tx: AdmissionTx, name: JobName, payloads: Record<string, unknown>[]): Promise<void> {
  await registerJobName(tx, name);
  await oneStatement(tx, [{ name: "job_rows", statement: insertJobs(tx, name, payloads) }], tx`select ${announceJobs(tx, "job_rows")}`);
}

describe("jobs added directly", () => {
  it("are stored exactly as graphile_worker.add_jobs stores keyless jobs", async () => {
    await sql`select count(*) from graphile_worker.add_jobs(array(
      select ('poll_task'::text, json_build_object('marker', 'gw', 'n', n), null::text, null::timestamptz, 25::smallint,
              null::text, null::smallint, null::text[])::graphile_worker.job_spec from generate_series(1, 2) n))`;
    await pipelinedTransaction(sql, (tx) => addJobs(tx, "poll_task", [{ marker: "ours", n: 1 }, { marker: "ours", n: 2 }]));
    const theirs = await jobsOf("gw");
    const ours = await jobsOf("ours");
    expect(ours).toHaveLength(2);
    expect(ours.map(({ payload: _, ...job }) => job)).toEqual(theirs.map(({ payload: _, ...job }) => job));
    expect(ours.map((job) => JSON.parse(job.payload as string))).toEqual([{ marker: "ours", n: 1 }, { marker: "ours", n: 2 }]);
  });

  it("register a task identifier the database has not seen, and wake listening workers with the count added", async () => {
    expect(await sql`select 1 from graphile_worker._private_tasks where identifier = 'deliver_callback'`).toHaveLength(0);
    const notices: string[] = [];
    const listening = await sql.listen("jobs:insert", (payload) => notices.push(payload));
    await pipelinedTransaction(sql, (tx) => addJobs(tx, "deliver_callback", [{ marker: "fresh", n: 1 }, { marker: "fresh", n: 2 }, { marker: "fresh", n: 3 }]));
    await expect.poll(() => notices.length).toBe(1);
    await listening.unlisten();
    expect(JSON.parse(notices[0] as string)).toMatchObject({ count: 3 });
    expect((await jobsOf("fresh")).map((job) => job.identifier)).toEqual(["deliver_callback", "deliver_callback", "deliver_callback"]);
  });

  it("add their jobs when another transaction registers the same new task identifier first", async () => {
    await sql`delete from graphile_worker._private_jobs where payload->>'marker' like 'race%'`;
    await sql`delete from graphile_worker._private_tasks where identifier = 'execute_task'`;
    const other = admissionConnections(postgres(database.url, { max: 1, onnotice: () => {} }));
    try {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let registered!: () => void;
      const firstRegistered = new Promise<void>((resolve) => (registered = resolve));
      const first = pipelinedTransaction(sql, async (tx) => {
        await addJobs(tx, "execute_task", [{ marker: "race-first" }]);
        registered();
        await released;
      });
      await firstRegistered;
      // The second waits on the first's uncommitted identifier, then finds it committed.
      const second = pipelinedTransaction(other, (tx) => addJobs(tx, "execute_task", [{ marker: "race-second" }]));
      await expect.poll(async () => (await sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`).length).toBeGreaterThan(0);
      release();
      await Promise.all([first, second]);
      expect((await jobsOf("race-first")).map((job) => job.identifier)).toEqual(["execute_task"]);
      expect((await jobsOf("race-second")).map((job) => job.identifier)).toEqual(["execute_task"]);
    } finally {
      await other.end();
    }
  });
});
