import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { transitionsDb } from "../../core/db/client.js";
import { expireSlots } from "../../core/db/statements/expire-slots.js";
import { finishUnsuccessfully } from "../../core/tasks/finish.js";
import { setRunningLimit } from "../../core/tasks/running-limits.js";
import { TaskStarts, type StartOutcome } from "../../core/tasks/task-starts.js";
import { deferralDelayMs, parkedDelayMs, takeDeliverySlot } from "../../core/tasks/tenant-slots.js";
import { loadConfig } from "../../core/index.js";
import { startHarness, type Harness } from "../support/harness.js";
import { admitEnhancement } from "../support/enhancement.js";

// The fair share of the workers and the operators' running limits, at the level of the start statement
// (core/db/statements/start-tasks.ts): each job that asks starts the waiting task of the tenant holding the fewest
// workers, a tenant alone takes every job, limits hold tasks back without failing them, and a job that finds only
// held-back work is parked for later.

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

// Each test starts from no open task and no limit.
beforeEach(async () => {
  await h.core.db.execute(sql`update tasks set status = 'canceled', tenant_slot = null, tenant_slot_until = null where status in ('queued', 'running')`);
  await h.core.db.execute(sql`delete from running_limits`);
});

// A worker process's own start statements: prepared, on a pipelining client of its own, as core/db/client.ts has.
function workerStarts(): TaskStarts {
  const client = postgres(h.databaseUrl, { max: 2, onnotice: () => {} });
  clients.push(client);
  return new TaskStarts(transitionsDb(client), () => h.core.providers.withAdapters(), () => new Date());
}

let jobs = 0;
// `count` execute jobs asking at once, as a worker's local queue hands them out; each names some task.
async function ask(starts: TaskStarts, count: number): Promise<StartOutcome[]> {
  return Promise.all(Array.from({ length: count }, () => starts.start({ taskId: "task_enqueued_for", jobId: `job-${++jobs}`, deferrals: 0 })));
}

const startedIds = (outcomes: StartOutcome[]) => outcomes.flatMap((outcome) => (outcome?.kind === "started" ? [outcome.row.id] : []));
const kinds = (outcomes: StartOutcome[]) => outcomes.map((outcome) => outcome?.kind ?? null);

async function queued(count: number, apiKey = h.apiKey): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await admitEnhancement(h, { apiKey }));
  return ids;
}

async function speech(apiKey = h.apiKey): Promise<string> {
  const created = await h.request("POST", "/v1/audio/speech", { apiKey, body: { voice: "en_female_aria", input: "Hello." }, idempotencyKey: randomUUID() });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  return created.body.task_id as string;
}

async function column(taskId: string, name: "provider_family" | "api_key_id"): Promise<string> {
  const rows = await h.core.db.execute<{ value: string }>(sql`select ${sql.identifier(name)} as value from tasks where id = ${taskId}`);
  return rows[0]?.value as string;
}

async function parkedJobs(): Promise<{ payload: { deferrals: number }; later: boolean; priority: number }[]> {
  const rows = await h.core.db.execute<{ payload: { deferrals: number }; later: boolean; priority: number }>(
    sql`select jobs.payload, jobs.run_at > now() as later, jobs.priority from graphile_worker._private_jobs as jobs
        join graphile_worker._private_tasks as tasks on tasks.id = jobs.task_id
        where tasks.identifier = 'execute_task' and (jobs.payload->>'deferrals')::int > 0`,
  );
  return [...rows];
}

describe("the fair share", () => {
  it("gives a tenant alone every job that asks, oldest task first", async () => {
    const mine = await queued(6);
    const outcomes = await ask(workerStarts(), 4);
    expect(startedIds(outcomes)).toEqual(mine.slice(0, 4));
    expect(outcomes[0]).toMatchObject({ row: { status: "running", attempts: 1, tenantSlot: null } });
  });

  it("starts the waiting tasks of the tenant holding the fewest workers first", async () => {
    const starts = workerStarts();
    const mine = await queued(5);
    // Mine hold two workers.
    expect(startedIds(await ask(starts, 2))).toEqual(mine.slice(0, 2));
    const theirs = await queued(2, other.apiKey);
    // Theirs take turns 1 and 2 (no worker held), mine 3, 4, 5 (two held): three jobs start both of theirs first.
    expect(startedIds(await ask(starts, 3))).toEqual([theirs[0], theirs[1], mine[2]]);
  });

  it("weighs a tenant's share by its weight", async () => {
    expect(await setRunningLimit(h.core.db, "tenant", other.tenantId, { weight: 2 })).toBe(true);
    const mine = await queued(3);
    const theirs = await queued(3, other.apiKey);
    // Turns: mine 1, 2, 3; theirs 0.5, 1, 1.5 (ties go to the older task).
    expect(startedIds(await ask(workerStarts(), 4))).toEqual([theirs[0], mine[0], theirs[1], theirs[2]]);
  });

  it("never starts one task twice, with two workers asking at the same moment", async () => {
    const tasks = await queued(8);
    const [first, second] = [workerStarts(), workerStarts()];
    const outcomes = (await Promise.all([ask(first, 5), ask(second, 5)])).flat();
    expect(startedIds(outcomes).sort()).toEqual([...tasks].sort());
    expect(kinds(outcomes).filter((kind) => kind === null)).toHaveLength(2);
  });
});

describe("an operator's running limits", () => {
  it("holds a family's tasks back at its limit while others start, and parks a job that finds only those", async () => {
    const family = await column((await queued(1))[0] as string, "provider_family");
    const limited = await queued(3);
    const voice = await speech();
    expect(await column(voice, "provider_family")).not.toBe(family);
    await h.core.db.execute(sql`update tasks set status = 'canceled' where status = 'queued' and id <> all(${sql.param([...limited, voice])}::text[])`);
    expect(await setRunningLimit(h.core.db, "family", family, { maxRunning: 1 })).toBe(true);

    const starts = workerStarts();
    const outcomes = await ask(starts, 4);
    expect(startedIds(outcomes)).toEqual([limited[0], voice]);
    // Two jobs found only held-back tasks: parked, due later and behind new jobs.
    expect(kinds(outcomes)).toEqual(["started", "started", "parked", "parked"]);
    expect(await parkedJobs()).toEqual([
      { payload: expect.objectContaining({ deferrals: 1 }), later: true, priority: 1 },
      { payload: expect.objectContaining({ deferrals: 1 }), later: true, priority: 1 },
    ]);
    // Room again once the running one ends; a limit raised at run time holds at the next start.
    await finishUnsuccessfully(h.core, limited[0] as string, "fail", { code: "model_request_failed", message: "ended by the test" });
    expect(startedIds(await ask(starts, 1))).toEqual([limited[1]]);
    await setRunningLimit(h.core.db, "family", family, { maxRunning: 5 });
    expect(startedIds(await ask(starts, 1))).toEqual([limited[2]]);
    await h.core.db.execute(sql`delete from graphile_worker._private_jobs where (payload->>'deferrals')::int > 0`);
  });

  it("holds a tenant, and one API key, at their limits", async () => {
    const mine = await queued(3);
    const theirs = await queued(3, other.apiKey);
    await setRunningLimit(h.core.db, "tenant", h.tenantId, { maxRunning: 1 });
    await setRunningLimit(h.core.db, "key", await column(theirs[0] as string, "api_key_id"), { maxRunning: 2 });
    const outcomes = await ask(workerStarts(), 6);
    expect(startedIds(outcomes).sort()).toEqual([mine[0], theirs[0], theirs[1]].sort());
    expect(kinds(outcomes).filter((kind) => kind === "parked")).toHaveLength(3);
    await h.core.db.execute(sql`delete from graphile_worker._private_jobs where (payload->>'deferrals')::int > 0`);
  });

  it("refuses a subject that does not exist, and a weight for anything but a tenant", async () => {
    expect(await setRunningLimit(h.core.db, "family", "vendorZ", { maxRunning: 2 })).toBe(false);
    expect(await setRunningLimit(h.core.db, "tenant", "tenant_missing", { maxRunning: 2 })).toBe(false);
    await expect(setRunningLimit(h.core.db, "family", "vendorA", { weight: 2 })).rejects.toThrow("only a tenant has a weight");
  });
});

describe("callback deliveries' slots", () => {
  it("caps a tenant's deliveries at its delivery slots, and frees held workers whose lease ran out", async () => {
    const [a, b] = await queued(2);
    const now = new Date();
    expect(await takeDeliverySlot(h.core.db, a as string, 1, now)).toBe(true);
    // Taken again by the job that holds it (its worker died); refused to another task of the tenant.
    expect(await takeDeliverySlot(h.core.db, a as string, 1, now)).toBe(true);
    expect(await takeDeliverySlot(h.core.db, b as string, 1, now)).toBe(false);
    expect(await expireSlots(h.core.db, now)).toBe(0);
    expect(await expireSlots(h.core.db, new Date(now.getTime() + 16 * 60 * 1000))).toBe(1);
    expect(await takeDeliverySlot(h.core.db, b as string, 1, now)).toBe(true);
  });

  it("gives a tenant's deliveries a quarter of WORKER_CONCURRENCY by default, and refuses TENANT_WORKER_SLOTS", () => {
    const slots = (env: Record<string, string>) => loadConfig({ ...h.env, ...env }).tenantDeliverySlots;
    expect([1, 4, 5, 16].map((n) => slots({ WORKER_CONCURRENCY: String(n) }))).toEqual([1, 1, 2, 4]);
    expect(slots({ TENANT_DELIVERY_SLOTS: "3" })).toBe(3);
    expect(() => loadConfig({ ...h.env, TENANT_WORKER_SLOTS: "2" })).toThrow(/TENANT_WORKER_SLOTS: is no longer read/);
  });

  it("spaces deliveries' deferrals from 1 s to 8 s and parked jobs' from 250 ms to 1 s, spread ±20 %", () => {
    expect([0, 1, 2, 3, 4, 10].map((n) => deferralDelayMs(n, () => 0.5))).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
    expect([0, 1, 2, 10].map((n) => parkedDelayMs(n, () => 0.5))).toEqual([250, 500, 1000, 1000]);
    expect(deferralDelayMs(0, () => 0)).toBe(800);
    expect(parkedDelayMs(0, () => 1)).toBe(300);
  });
});
