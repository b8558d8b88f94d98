import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseCredits } from "../../core/index.js";
import { finishUnsuccessfully } from "../../core/tasks/finish.js";
import { balance, countRows, startHarness, type Harness } from "../support/harness.js";
import { ledgerInvariantViolations } from "../support/ledger-invariant.js";

// Endings that happen together share one transaction and run side by side on its connection
// (core/tasks/finish-batch.ts). Each must still end its task as it would alone, exactly once. No worker: the
// tasks stay queued until these tests end them.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  expect(await ledgerInvariantViolations(h.core.db)).toEqual([]);
});
afterAll(async () => h?.close());

async function queuedSpeech(apiKey: string, key: string): Promise<string> {
  const response = await h.request("POST", "/v1/audio/speech", { body: { voice: "en_female_aria", input: "hello", model: "vendorA-speech-2.8-hd" }, idempotencyKey: key, apiKey });
  expect(response.status).toBe(202);
  return response.body.task_id as string;
}

describe("endings committed together", () => {
  it("end many tasks at once, each refunded once", async () => {
    const tenant = await h.newTenant("1");
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => queuedSpeech(tenant.apiKey, `many-${i}`)));
    const ended = await Promise.all(ids.map((id) => finishUnsuccessfully(h.core, id, "cancelQueued", null)));
    expect(ended.map((row) => row?.status)).toEqual(Array(12).fill("canceled"));
    expect(await balance(h, tenant.tenantId)).toMatchObject({ available: parseCredits("1"), held: 0n, spent: 0n });
    expect(await countRows(h, sql`select count(*)::int as n from credit_ledger where tenant_id = ${tenant.tenantId} and kind = 'release'`)).toBe(12);
  });

  it("let the first of two endings of one task in a group win, and the second find it ended", async () => {
    const tenant = await h.newTenant("1");
    const id = await queuedSpeech(tenant.apiKey, "twice");
    const [canceled, failed] = await Promise.all([
      finishUnsuccessfully(h.core, id, "cancelQueued", null),
      finishUnsuccessfully(h.core, id, "fail", { code: "model_request_failed", message: "too late" }),
    ]);
    expect(canceled?.status).toBe("canceled");
    expect(failed).toBeNull();
    const task = await h.request("GET", `/v1/tasks/${id}`, { apiKey: tenant.apiKey });
    expect(task.body.status).toBe("canceled");
    expect(await countRows(h, sql`select count(*)::int as n from credit_ledger where task_id = ${id} and kind in ('release', 'capture')`)).toBe(1);
  });
});
