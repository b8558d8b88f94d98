import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { admitBatch, type Admission } from "../../core/tasks/admission-batch.js";
import { balance, countRows, startHarness, type Harness } from "../support/harness.js";
import { helloAdmissions } from "../support/hello-admissions.js";
import { ledgerInvariantViolations } from "../support/ledger-invariant.js";
import { admissionConnections, type DirectSql } from "../../core/db/client.js";

// An admission batch is first written in one statement that assumes every member is admitted, and judged in a
// transaction only when that statement fails (core/tasks/admission-batch.ts). Each case below holds the batch to
// the outcome judging gives, and says which way it went by the statements the batch sent.

let h: Harness;
let statements: string[] = [];
let direct: DirectSql;
beforeAll(async () => {
  h = await startHarness();
  direct = admissionConnections(postgres(h.env.DATABASE_URL as string, { max: 2, onnotice: () => {}, debug: (_connection, query) => statements.push(query) }));
});
afterEach(async () => {
  statements = [];
  expect(await ledgerInvariantViolations(h.core.db)).toEqual([]);
});
afterAll(async () => {
  await direct?.end();
  await h?.close();
});

const judged = () => statements.some((statement) => statement.trim() === "begin");
const rowsOf = (table: "tasks" | "idempotency_keys", tenantId: string) =>
  countRows(h, sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${tenantId}`);

// A new speech task of "hello" (500 micro-credits) for the tenant, under `key`.
async function speechAdmission(tenantId: string, key: string, fingerprint = key): Promise<Admission> {
  return (await helloAdmissions(h.core.ids, tenantId)).admission(key, fingerprint);
}

describe("an admission batch written in one statement", () => {
  it("is judged when its job's name is not registered yet (a database no job has used), and registers it", async () => {
    const tenant = await h.newTenant("1");
    await h.core.db.execute(sql`
      delete from graphile_worker._private_jobs where task_id in (select id from graphile_worker._private_tasks where identifier = 'execute_task')`);
    await h.core.db.execute(sql`delete from graphile_worker._private_tasks where identifier = 'execute_task'`);
    const admission = await speechAdmission(tenant.tenantId, "first-job");
    const [result] = await admitBatch(direct, [admission]);
    expect(result?.kind).toBe("admitted");
    expect(judged()).toBe(true);
    expect(await countRows(h, sql`
      select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
       where t.identifier = 'execute_task' and j.payload->>'task_id' = ${admission.row.id}`)).toBe(1);
  });

  it("admits fresh keys covered by the balance with that one statement: tasks, keys, jobs and holds", async () => {
    const tenant = await h.newTenant("1");
    const batch = await Promise.all(["fresh-a", "fresh-b", "fresh-c"].map((key) => speechAdmission(tenant.tenantId, key)));
    const results = await admitBatch(direct, batch);

    expect(results.map((r) => r.kind)).toEqual(["admitted", "admitted", "admitted"]);
    expect(statements).toHaveLength(1);
    expect(await rowsOf("tasks", tenant.tenantId)).toBe(3);
    expect(await rowsOf("idempotency_keys", tenant.tenantId)).toBe(3);
    expect(await countRows(h, sql`select count(*)::int as n from graphile_worker._private_jobs where payload->>'task_id' = any(${`{${batch.map((a) => a.row.id).join(",")}}`}::text[])`)).toBe(3);
    expect(await balance(h, tenant.tenantId)).toEqual({ available: 1_000_000n - 1_500n, held: 1_500n, spent: 0n, granted: 1_000_000n });
  });

  it("is judged when a key is stored already: the same request replays, a fresh one beside it is admitted", async () => {
    const tenant = await h.newTenant("1");
    const first = await speechAdmission(tenant.tenantId, "stored-key");
    await admitBatch(direct, [first]);
    statements = [];

    const results = await admitBatch(direct, [await speechAdmission(tenant.tenantId, "stored-key"), await speechAdmission(tenant.tenantId, "beside-it")]);
    expect(results[0]).toEqual({ kind: "replay", taskId: first.row.id });
    expect(results[1]?.kind).toBe("admitted");
    expect(judged()).toBe(true);
    expect(await rowsOf("tasks", tenant.tenantId)).toBe(2);
    expect((await balance(h, tenant.tenantId)).held).toBe(1_000n);
  });

  it("is judged when another request body used the key: a conflict, nothing written", async () => {
    const tenant = await h.newTenant("1");
    await admitBatch(direct, [await speechAdmission(tenant.tenantId, "used-key", "one body")]);
    const [result] = await admitBatch(direct, [await speechAdmission(tenant.tenantId, "used-key", "another body")]);
    expect(result?.kind === "refused" ? result.error.code : result?.kind).toBe("idempotency_conflict");
    expect(await rowsOf("tasks", tenant.tenantId)).toBe(1);
    expect((await balance(h, tenant.tenantId)).held).toBe(500n);
  });

  it("is judged when the key is being admitted elsewhere: request_in_progress, nothing written", async () => {
    const tenant = await h.newTenant("1");
    const other = await direct.reserve();
    try {
      await other`begin`;
      await other`select pg_advisory_xact_lock(hashtextextended(${tenant.tenantId} || ':' || 'locked-key', 0))`;
      statements = [];
      const [result] = await admitBatch(direct, [await speechAdmission(tenant.tenantId, "locked-key")]);
      expect(result?.kind === "refused" ? result.error.code : result?.kind).toBe("request_in_progress");
      expect(judged()).toBe(true);
    } finally {
      await other`rollback`;
      other.release();
    }
    expect(await rowsOf("tasks", tenant.tenantId)).toBe(0);
    expect(await rowsOf("idempotency_keys", tenant.tenantId)).toBe(0);
    expect(await balance(h, tenant.tenantId)).toEqual({ available: 1_000_000n, held: 0n, spent: 0n, granted: 1_000_000n });
  });

  it("is judged when the balance covers only some holds: the members in order until it runs out", async () => {
    const tenant = await h.newTenant("0.001000");
    const batch = await Promise.all(["short-a", "short-b", "short-c"].map((key) => speechAdmission(tenant.tenantId, key)));
    const results = await admitBatch(direct, batch);
    expect(results.map((r) => (r.kind === "refused" ? r.error.code : r.kind))).toEqual(["admitted", "admitted", "insufficient_balance"]);
    expect(judged()).toBe(true);
    expect(await rowsOf("tasks", tenant.tenantId)).toBe(2);
    expect(await balance(h, tenant.tenantId)).toEqual({ available: 0n, held: 1_000n, spent: 0n, granted: 1_000n });
  });

  it("holds nothing for a tenant without an account: insufficient_balance, no task, no key", async () => {
    const tenantId = h.core.ids.tenant();
    await h.core.db.execute(sql`insert into tenants (id, name) values (${tenantId}, 'no account')`);
    const [result] = await admitBatch(direct, [await speechAdmission(tenantId, "no-account")]);
    expect(result?.kind === "refused" ? result.error.code : result?.kind).toBe("insufficient_balance");
    expect(judged()).toBe(true);
    expect(await rowsOf("tasks", tenantId)).toBe(0);
    expect(await rowsOf("idempotency_keys", tenantId)).toBe(0);
    expect(await countRows(h, sql`select count(*)::int as n from credit_ledger where tenant_id = ${tenantId}`)).toBe(0);
  });
});
