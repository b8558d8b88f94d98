import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admissionConnections, type DirectSql } from "../../core/db/client.js";
import { pipelinedTransaction } from "../../core/db/pipelined-transaction.js";
import { ownerKey } from "../../core/db/spend-states.js";
import { admitTasks } from "../../core/db/statements/admit-tasks.js";
import { tryLockKeys } from "../../core/db/statements/lock-idempotency-keys.js";
import { readBalance } from "../../core/db/statements/read-balance.js";
import { readBalances } from "../../core/db/statements/read-balances.js";
import { readKeys } from "../../core/db/statements/read-idempotency-keys.js";
import { readSpend } from "../../core/db/statements/read-spend.js";
import { readTasksById } from "../../core/db/statements/read-tasks.js";
import { registerJobName } from "../../core/db/statements/register-job-name.js";
import { taskRecordOf } from "../../core/db/task-rows.js";
import { IDEMPOTENCY_WINDOW_MS } from "../../core/idempotency/claim.js";
import { startHarness, type Harness } from "../support/harness.js";
import { admitEnhancement } from "../support/enhancement.js";

// The admission batch's statements (core/tasks/admission-batch.ts), each run as the batch runs it on the
// admission's direct connections (the reads that judge it inside a pipelined transaction), against a database
// cloned from the template.

let h: Harness;
let direct: DirectSql;
beforeAll(async () => {
  h = await startHarness({ worker: false, credits: "100" });
  direct = admissionConnections(postgres(h.databaseUrl, { max: 2, onnotice: () => {} }));
});
afterAll(async () => {
  await direct?.end();
  await h?.close();
});

const admitted = (idempotencyKey: string) => admitEnhancement(h, { idempotencyKey });

describe("lock-idempotency-keys", () => {
  it("takes the locks of keys free, and answers false for a key whose lock another admission holds", async () => {
    const [held, free] = [randomUUID(), randomUUID()];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockedFirst = new Promise<void>((resolve) => (locked = resolve));
    const first = pipelinedTransaction(direct, async (tx) => {
      expect(await tryLockKeys(tx, [{ tenantId: h.tenantId, key: held }])).toEqual([true]);
      locked();
      await released;
    });
    await lockedFirst;
    const second = await pipelinedTransaction(direct, (tx) =>
      tryLockKeys(tx, [
        { tenantId: h.tenantId, key: free },
        { tenantId: h.tenantId, key: held },
      ]),
    );
    release();
    await first;
    expect(second).toEqual([true, false]);
  });
});

describe("read-idempotency-keys", () => {
  it("answers each key's row in the order asked, undefined for a key never used", async () => {
    const key = randomUUID();
    const taskId = await admitted(key);
    const stored = await pipelinedTransaction(direct, (tx) =>
      readKeys(tx, [
        { tenantId: h.tenantId, key: randomUUID() },
        { tenantId: h.tenantId, key },
      ]),
    );
    expect(stored[0]).toBeUndefined();
    expect(stored[1]).toMatchObject({ taskId, fingerprint: expect.any(String) });
    expect(stored[1]?.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });
});

describe("read-balances", () => {
  it("answers the available balance of each tenant with an account, as the pool reads it", async () => {
    const balances = await pipelinedTransaction(direct, (tx) => readBalances(tx, [h.tenantId, "tenant_without_account"]));
    expect([...balances.keys()]).toEqual([h.tenantId]);
    expect(balances.get(h.tenantId)).toBe((await readBalance(h.core.db, h.tenantId)).available);
  });
});

describe("read-spend", () => {
  it("answers each limit of the tenants and keys asked with what was held under it this period", async () => {
    await h.core.db.execute(sql`
      insert into spend_limits (scope, owner, tenant_id, period, "limit") values ('tenant', ${h.tenantId}, ${h.tenantId}, 'day', 5000000)`);
    const before = await pipelinedTransaction(direct, (tx) => readSpend(tx, [h.tenantId], [], new Date()));
    expect(before.get(ownerKey("tenant", h.tenantId))).toEqual({ scope: "tenant", owner: h.tenantId, period: "day", limit: 5_000_000n, spent: 0n });
    await admitted(randomUUID());
    const after = await pipelinedTransaction(direct, (tx) => readSpend(tx, [h.tenantId], [], new Date()));
    expect(after.get(ownerKey("tenant", h.tenantId))?.spent).toBeGreaterThan(0n);
    expect(await pipelinedTransaction(direct, (tx) => readSpend(tx, ["tenant_without_limits"], [], new Date()))).toEqual(new Map());
  });
});

describe("register-job-name", () => {
  it("registers a job name once, however often it is asked", async () => {
    await pipelinedTransaction(direct, (tx) => registerJobName(tx, "deliver_callback"));
    await pipelinedTransaction(direct, (tx) => registerJobName(tx, "deliver_callback"));
    const rows = await direct`select 1 from graphile_worker._private_tasks where identifier = 'deliver_callback'`;
    expect(rows).toHaveLength(1);
  });
});

describe("admit-tasks", () => {
  it("stores the tasks with their keys, jobs, holds and balances in one statement, and nothing when one check fails", async () => {
    const [template] = (await readTasksById(h.core.reads, [await admitted(randomUUID())])).values();
    const now = new Date();
    const taskId = `task_${randomUUID().replaceAll("-", "").slice(0, 26)}`;
    const admittedTasks = {
      records: [taskRecordOf({ ...template!, id: taskId, createdAt: now })],
      inlineMedia: [],
      capabilitySteps: [],
      claims: [{ tenantId: h.tenantId, key: randomUUID(), fingerprint: "fingerprint", now, taskId }],
      keyWindowMs: IDEMPOTENCY_WINDOW_MS,
      holds: [{ tenantId: h.tenantId, taskId, amount: 1_000n, apiKeyId: undefined }],
      now,
    };
    const before = await readBalance(h.core.db, h.tenantId);
    await admitTasks(direct, admittedTasks, "claim", 1);
    expect((await readTasksById(h.core.reads, [taskId])).get(taskId)).toMatchObject({ id: taskId, status: "queued" });
    const after = await readBalance(h.core.db, h.tenantId);
    expect([after.available, after.held]).toEqual([before.available - 1_000n, before.held + 1_000n]);
    expect(await direct`select 1 from idempotency_keys where task_id = ${taskId}`).toHaveLength(1);
    expect(await direct`select 1 from credit_ledger where task_id = ${taskId} and kind = 'hold' and amount = 1000`).toHaveLength(1);
    expect(await direct`select 1 from graphile_worker._private_jobs where payload->>'task_id' = ${taskId}`).toHaveLength(1);

    // The same key claimed again fails the statement, and none of its other steps is left behind.
    const again = `task_${randomUUID().replaceAll("-", "").slice(0, 26)}`;
    const replayed = {
      ...admittedTasks,
      records: [taskRecordOf({ ...template!, id: again, createdAt: now })],
      claims: [{ ...admittedTasks.claims[0]!, taskId: again }],
      holds: [{ ...admittedTasks.holds[0]!, taskId: again }],
    };
    await expect(admitTasks(direct, replayed, "claim", 1)).rejects.toThrow();
    expect((await readTasksById(h.core.reads, [again])).size).toBe(0);
    expect(await readBalance(h.core.db, h.tenantId)).toEqual(after);
  });
});
