import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transitionsDb } from "../../core/db/client.js";
import { finishUnsuccessfully } from "../../core/tasks/finish.js";
import { TaskStarts, type StartOutcome } from "../../core/tasks/task-starts.js";
import { expireSlots } from "../../core/db/statements/expire-slots.js";
import { deferralDelayMs, takeDeliverySlot } from "../../core/tasks/tenant-slots.js";
import { loadConfig } from "../../core/index.js";
import { startHarness, type Harness } from "../support/harness.js";
import { admitEnhancement } from "../support/enhancement.js";

// A tenant's worker slots (core/tasks/tenant-slots.ts), at the level of the start statement: a tenant never holds
// more than its cap, whatever asks at once, and a task that finds no slot is handed to a job enqueued for later,
// the only job that may start it then.

let h: Harness;
let other: { tenantId: string; apiKey: string };
const clients: postgres.Sql[] = [];
beforeAll(async () => {
  h = await startHarness({ worker: false, credits: "100" });
  other = await h.newTenant("100");
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.end()));
  await h?.close();
});

// A worker process's own start statements: prepared, on a pipelining client of its own, as core/db/client.ts has.
function workerStarts(slots: number): TaskStarts {
  const client = postgres(h.databaseUrl, { max: 2, onnotice: () => {} });
  clients.push(client);
  return new TaskStarts(transitionsDb(client), () => h.core.providers.withAdapters(), () => new Date(), slots);
}

const queuedTask = (apiKey = h.apiKey) => admitEnhancement(h, { apiKey });

async function slotsHeld(tenantId: string): Promise<number[]> {
  const rows = await h.core.db.execute<{ tenant_slot: number }>(
    sql`select tenant_slot from tasks where tenant_id = ${tenantId} and tenant_slot is not null order by tenant_slot`,
  );
  return rows.map((row) => row.tenant_slot);
}

async function tokenOf(taskId: string): Promise<string | null> {
  const rows = await h.core.db.execute<{ execution_token: string | null }>(sql`select execution_token from tasks where id = ${taskId}`);
  return rows[0]?.execution_token ?? null;
}

async function clearSlots(): Promise<void> {
  await h.core.db.execute(sql`update tasks set tenant_slot = null, tenant_slot_until = null`);
}

const kinds = (outcomes: StartOutcome[]) => outcomes.map((outcome) => outcome?.kind ?? null);

describe("the start statement and a tenant's slots", () => {
  it("starts a tenant's oldest tasks into its free slots and defers the rest to jobs of their own", async () => {
    await clearSlots();
    const mine = [await queuedTask(), await queuedTask(), await queuedTask(), await queuedTask()];
    const theirs = await queuedTask(other.apiKey);
    const starts = workerStarts(2);
    // Asked newest first, in one turn: the oldest two get the slots all the same.
    const asked = [...mine].reverse().concat(theirs);
    const outcomes = await Promise.all(asked.map((taskId, i) => starts.start({ taskId, jobId: `first-${i}`, deferrals: 0 })));
    expect(kinds(outcomes)).toEqual(["deferred", "deferred", "started", "started", "started"]);
    // Executions take the highest free slots first (the lower half is where deliveries go).
    expect(await slotsHeld(h.tenantId)).toEqual([1, 2]);
    expect(await slotsHeld(other.tenantId)).toEqual([2]);

    // Each deferred task names a new execute_task job, due later and behind new jobs, as the one job that may
    // start it.
    const deferred = mine.slice(2);
    for (const taskId of deferred) {
      const token = await tokenOf(taskId);
      const jobs = await h.core.db.execute<{ payload: { task_id: string; deferrals: number }; later: boolean; priority: number }>(
        sql`select jobs.payload, jobs.run_at > now() as later, jobs.priority from graphile_worker._private_jobs as jobs
            join graphile_worker._private_tasks as tasks on tasks.id = jobs.task_id
            where jobs.id = ${token}::bigint and tasks.identifier = 'execute_task'`,
      );
      expect(jobs[0]).toMatchObject({ payload: { task_id: taskId, deferrals: 1 }, later: true, priority: 1 });
    }
    const [waiting] = deferred as [string];
    expect(await starts.start({ taskId: waiting, jobId: "first-1", deferrals: 0 })).toBeNull();

    // A slot given back (the task ended) is the deferred job's to take, and the tenant stays at two.
    await finishUnsuccessfully(h.core, mine[0] as string, "fail", { code: "model_request_failed", message: "ended by the test" });
    expect(await slotsHeld(h.tenantId)).toEqual([1]);
    const token = (await tokenOf(waiting)) as string;
    expect(await starts.start({ taskId: waiting, jobId: token, deferrals: 1 })).toMatchObject({ kind: "started", row: { id: waiting, tenantSlot: 2 } });
    expect(await slotsHeld(h.tenantId)).toEqual([1, 2]);
  });

  it("never gives a tenant more than its cap, with two workers starting its tasks at the same moment", async () => {
    await clearSlots();
    const first = workerStarts(1);
    const second = workerStarts(1);
    for (let round = 0; round < 5; round++) {
      const [a, b] = [await queuedTask(), await queuedTask()] as [string, string];
      const outcomes = await Promise.all([first.start({ taskId: a, jobId: `a-${round}`, deferrals: 0 }), second.start({ taskId: b, jobId: `b-${round}`, deferrals: 0 })]);
      expect(kinds(outcomes).sort()).toEqual(["deferred", "started"]);
      expect(await slotsHeld(h.tenantId)).toEqual([1]);
      await clearSlots();
    }
  });

  it("gives callback deliveries the lower half of the slots while free, and frees slots whose lease ran out", async () => {
    await clearSlots();
    const [a, b] = [await queuedTask(), await queuedTask()] as [string, string];
    const now = new Date();
    expect(await takeDeliverySlot(h.core.db, a, 2, now)).toBe(true);
    // Taken again by the job that holds it (its worker died); refused to another task of the tenant, slot 2 being
    // the executions' own.
    expect(await takeDeliverySlot(h.core.db, a, 2, now)).toBe(true);
    expect(await takeDeliverySlot(h.core.db, b, 2, now)).toBe(false);
    expect(await slotsHeld(h.tenantId)).toEqual([1]);
    expect(await expireSlots(h.core.db, now)).toBe(0);
    expect(await expireSlots(h.core.db, new Date(now.getTime() + 16 * 60 * 1000))).toBe(1);
    expect(await takeDeliverySlot(h.core.db, b, 2, now)).toBe(true);
  });

  it("gives a tenant half of WORKER_CONCURRENCY by default, rounded up, unless TENANT_WORKER_SLOTS says", () => {
    const unset = Object.fromEntries(Object.entries(h.env).filter(([name]) => name !== "TENANT_WORKER_SLOTS"));
    const slots = (env: Record<string, string>) => loadConfig({ ...unset, ...env }).tenantWorkerSlots;
    expect([1, 4, 5, 16].map((n) => slots({ WORKER_CONCURRENCY: String(n) }))).toEqual([1, 2, 3, 8]);
    expect(slots({ WORKER_CONCURRENCY: "16", TENANT_WORKER_SLOTS: "12" })).toBe(12);
  });

  it("spaces a job's deferrals from 1 s to 8 s, spread ±20 %", () => {
    expect([0, 1, 2, 3, 4, 10].map((n) => deferralDelayMs(n, () => 0.5))).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
    expect(deferralDelayMs(0, () => 0)).toBe(800);
    expect(deferralDelayMs(0, () => 1)).toBe(1200);
  });
});
