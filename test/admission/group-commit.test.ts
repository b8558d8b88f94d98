import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseCredits } from "../../core/index.js";
import postgres from "postgres";
import { admitBatch } from "../../core/tasks/admission-batch.js";
import { balance, countRows, startHarness, type Harness } from "../support/harness.js";
import { helloAdmissions } from "../support/hello-admissions.js";
import { ledgerInvariantViolations } from "../support/ledger-invariant.js";
import { admissionConnections } from "../../core/db/client.js";

// Admissions that arrive together commit together (core/db/group-commit.ts): many tenants' requests in one
// transaction, each with exactly the outcome it would have had alone. No worker: every task stays queued.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  expect(await ledgerInvariantViolations(h.core.db)).toEqual([]);
});
afterAll(async () => h?.close());

const speech = (apiKey: string, key: string, input: string) =>
  h.request("POST", "/v1/audio/speech", { body: { voice: "en_female_aria", input, model: "vendorA-speech-2.8-hd" }, idempotencyKey: key, apiKey });

function executeJobsOf(tenantId: string) {
  return countRows(
    h,
    sql`select count(*)::int as n from graphile_worker._private_jobs j
          join graphile_worker._private_tasks t on t.id = j.task_id
          join tasks on tasks.id = j.payload->>'task_id'
         where t.identifier = 'execute_task' and tasks.tenant_id = ${tenantId}`,
  );
}

describe("admissions committed together", () => {
  it("gives each of many tenants' concurrent requests its own task, hold and job, sharing transactions", async () => {
    // "hello" costs 500 micro-credits on hd; each rich tenant can pay for all of its requests, the poor one for two.
    const rich = await Promise.all([h.newTenant("1"), h.newTenant("1"), h.newTenant("1")]);
    const poor = await h.newTenant("0.001000");
    const requests = [...rich, poor].flatMap((tenant, t) =>
      Array.from({ length: 15 }, (_, i) => ({ tenant, response: speech(tenant.apiKey, `burst-${t}-${i}`, "hello") })),
    );
    const responses = await Promise.all(requests.map(async (r) => ({ tenant: r.tenant, response: await r.response })));

    for (const tenant of rich) {
      const mine = responses.filter((r) => r.tenant === tenant).map((r) => r.response);
      expect(mine.map((r) => r.status)).toEqual(Array(15).fill(202));
      expect(new Set(mine.map((r) => r.body.task_id)).size).toBe(15);
      expect(await countRows(h, sql`select count(*)::int as n from tasks where tenant_id = ${tenant.tenantId}`)).toBe(15);
      expect(await executeJobsOf(tenant.tenantId)).toBe(15);
      expect(await balance(h, tenant.tenantId)).toEqual({
        available: parseCredits("1") - 15n * 500n,
        held: 15n * 500n,
        spent: 0n,
        granted: parseCredits("1"),
      });
    }
    const poorAnswers = responses.filter((r) => r.tenant === poor).map((r) => r.response);
    expect(poorAnswers.filter((r) => r.status === 202)).toHaveLength(2);
    for (const refused of poorAnswers.filter((r) => r.status !== 202)) {
      expect(refused.status).toBe(402);
      expect(refused.body.error.code).toBe("insufficient_balance");
    }
    expect(await executeJobsOf(poor.tenantId)).toBe(2);
    expect(await balance(h, poor.tenantId)).toEqual({ available: 0n, held: 1000n, spent: 0n, granted: 1000n });

    // The burst was admitted in fewer transactions than tasks: rows written by one transaction share its xmin.
    const transactions = await countRows(
      h,
      sql`select count(distinct xmin::text)::int as n from tasks where tenant_id in (${sql.join(
        [...rich, poor].map((t) => sql`${t.tenantId}`),
        sql`, `,
      )})`,
    );
    expect(transactions).toBeLessThan(47);
  });

  it("replays a key admitted earlier in the same burst as a request still in progress or as its task", async () => {
    const tenant = await h.newTenant("1");
    const responses = await Promise.all(Array.from({ length: 20 }, () => speech(tenant.apiKey, "burst-same-key", "same words")));
    const admitted = responses.filter((r) => r.status === 202);
    expect(new Set(admitted.map((r) => r.body.task_id)).size).toBe(1);
    expect(admitted.filter((r) => r.headers.get("idempotent-replayed") !== "true")).toHaveLength(1);
    for (const other of responses.filter((r) => r.status !== 202)) expect(other.body.error.code).toBe("request_in_progress");
    expect(await executeJobsOf(tenant.tenantId)).toBe(1);
  });

  it("judges two batches that read one balance at once against what the other took, holding it once", async () => {
    // "hello" costs 500 micro-credits: the balance covers one of the two batches, each judged alone on its own
    // connection; whichever takes its hold second finds the balance lowered and is judged again.
    const tenant = await h.newTenant("0.000500");
    const { admission, hold } = await helloAdmissions(h.core.ids, tenant.tenantId);
    expect(hold).toBe(500n);
    const direct = admissionConnections(postgres(h.env.DATABASE_URL as string, { max: 2, onnotice: () => {} }));
    try {
      const [first, second] = await Promise.all([admitBatch(direct, [admission("one-balance-a")]), admitBatch(direct, [admission("one-balance-b")])]);
      const kinds = [first?.[0]?.kind, second?.[0]?.kind].sort();
      expect(kinds).toEqual(["admitted", "refused"]);
      const refused = [first?.[0], second?.[0]].find((result) => result?.kind === "refused");
      expect(refused?.kind === "refused" ? refused.error.code : null).toBe("insufficient_balance");
    } finally {
      await direct.end();
    }
    expect(await balance(h, tenant.tenantId)).toEqual({ available: 0n, held: 500n, spent: 0n, granted: 500n });
    expect(await countRows(h, sql`select count(*)::int as n from tasks where tenant_id = ${tenant.tenantId}`)).toBe(1);
    expect(await executeJobsOf(tenant.tenantId)).toBe(1);
  });

  it("lets an admission the database refuses fail alone, admitting the others of its group", async () => {
    const tenant = await h.newTenant("1");
    const { admission, hold } = await helloAdmissions(h.core.ids, tenant.tenantId);
    const broken = admission("refused-by-the-database");
    // A status the tasks table's check constraint refuses: the whole group's transaction fails on it.
    broken.row.status = "lost";
    const outcomes = await Promise.allSettled([admission("group-a"), broken, admission("group-b")].map((a) => h.core.admissions.submit(a)));

    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value.kind : null))).toEqual(["admitted", null, "admitted"]);
    expect(await countRows(h, sql`select count(*)::int as n from tasks where tenant_id = ${tenant.tenantId}`)).toBe(2);
    expect(await countRows(h, sql`select count(*)::int as n from idempotency_keys where tenant_id = ${tenant.tenantId}`)).toBe(2);
    expect(await executeJobsOf(tenant.tenantId)).toBe(2);
    expect((await balance(h, tenant.tenantId)).held).toBe(2n * hold);
  });
});
