import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, waitForTask, type Harness } from "../support/harness.js";
import { ledgerInvariantViolations } from "../support/ledger-invariant.js";

// The check every harness runs when it closes (granted = available + held + spent, and the account agrees with
// its ledger) sees each way the books can go wrong.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: true });
});
afterAll(async () => h?.close());

describe("the ledger invariant check", () => {
  it("finds nothing wrong after tasks were held, captured and released", async () => {
    const ok = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "inv-ok", body: { voice: "en_female_aria", input: "Fine." } });
    const canceled = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "inv-cancel", body: { voice: "en_female_aria", input: "Stop." } });
    await h.request("POST", `/v1/tasks/${canceled.body.task_id}/cancel`);
    await waitForTask(h, ok.body.task_id, ["succeeded"]);
    expect(await ledgerInvariantViolations(h.core.db)).toEqual([]);
  });

  it("reports a ledger that disagrees with its account and a settlement without its hold", async () => {
    const task = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "inv-bad", body: { voice: "en_female_aria", input: "Bad." } });
    const taskId: string = task.body.task_id;
    await waitForTask(h, taskId, ["succeeded"]);
    // Writes the service never makes: a grant the account did not get, a release of a hold that does not exist.
    // (A second settlement of one task is impossible: a unique index refuses it.)
    const corruption = sql`
      insert into credit_ledger (tenant_id, task_id, kind, amount) values
        (${h.tenantId}, null, 'grant', 5), (${h.tenantId}, 'task_without_hold', 'release', 1)
      returning id`;
    const inserted = await h.core.db.execute<{ id: string }>(corruption);
    try {
      const violations = await ledgerInvariantViolations(h.core.db);
      expect(violations).toEqual([
        expect.stringMatching(new RegExp(`^tenant ${h.tenantId} .*: the ledger grants 100000005$`)),
        "task task_without_hold: ledger entries release (one hold and at most one settlement expected)",
      ]);
    } finally {
      await h.core.db.execute(sql`delete from credit_ledger where id in (${sql.join(inserted.map((row) => sql`${row.id}`), sql`, `)})`);
    }
    expect(await ledgerInvariantViolations(h.core.db)).toEqual([]);
  });
});
