import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCredits } from "../../core/credits/money.js";
import { recentLedgerEntries } from "../../core/db/statements/ledger-entries.js";
import { readBalance } from "../../core/db/statements/read-balance.js";
import { recordSettlement } from "../../core/db/statements/record-settlement.js";
import { returnSpend } from "../../core/db/statements/return-spend.js";
import { settleAccount } from "../../core/db/statements/settle-account.js";
import { startHarness, type Harness } from "../support/harness.js";
import { admitEnhancement } from "../support/enhancement.js";

// The ledger's statements of core/db/statements/ against a database cloned from the template: the reads of
// GET /v1/credits and its ledger, and the writes of a task ending's settlement.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: false, credits: "100" });
});
afterAll(async () => h?.close());

const admitted = () => admitEnhancement(h);

describe("read-balance", () => {
  it("answers a tenant's account as bigints that add up to what was granted, and zeros without an account", async () => {
    await admitted();
    const balance = await readBalance(h.core.db, h.tenantId);
    expect(balance.granted).toBe(100_000_000n);
    expect(balance.held).toBeGreaterThan(0n);
    expect(balance.available + balance.held + balance.spent).toBe(balance.granted);
    expect(await readBalance(h.core.db, "tenant_without_account")).toEqual({ available: 0n, held: 0n, spent: 0n, granted: 0n });
  });
});

describe("ledger-entries", () => {
  it("pages the ledger newest first by its numeric id", async () => {
    const taskId = await admitted();
    const [newest, older] = await recentLedgerEntries(h.core.db, h.tenantId, 2);
    expect(newest).toMatchObject({ kind: "hold", taskId, note: null });
    expect(newest?.amount).toBeGreaterThan(0n);
    expect(newest?.createdAt).toBeInstanceOf(Date);
    expect(BigInt(newest?.id ?? 0)).toBeGreaterThan(BigInt(older?.id ?? 0));
    const next = await recentLedgerEntries(h.core.db, h.tenantId, 100, older?.id);
    expect(next.map((entry) => entry.id)).not.toContain(older?.id);
    expect(next.every((entry) => BigInt(entry.id) < BigInt(older?.id ?? 0))).toBe(true);
    expect(next.at(-1)).toMatchObject({ kind: "grant", taskId: null });
  });
});

// A task's settlement recorded twice in one transaction, the account settled after the first: [first, second].
function settleTwice(taskId: string, held: bigint, captured: bigint): Promise<boolean[]> {
  return h.core.db.transaction(async (tx) => {
    const note = `returned ${formatCredits(held - captured)} of the hold`;
    const first = await recordSettlement(tx, h.tenantId, taskId, held, captured, note);
    const second = await recordSettlement(tx, h.tenantId, taskId, held, captured, note);
    if (first) await settleAccount(tx, h.tenantId, { held, spent: captured, returned: held - captured });
    return [first, second];
  });
}

describe("record-settlement and settle-account", () => {
  it("record a task's settlement once, and move its hold to spent and available", async () => {
    const taskId = await admitted();
    const before = await readBalance(h.core.db, h.tenantId);
    const [hold] = await recentLedgerEntries(h.core.db, h.tenantId, 1);
    const held = hold?.amount ?? 0n;
    const captured = held / 2n;
    const recorded = await settleTwice(taskId, held, captured);
    expect(recorded).toEqual([true, false]);
    const [settlement] = await recentLedgerEntries(h.core.db, h.tenantId, 1);
    expect(settlement).toMatchObject({ kind: "capture", taskId, amount: captured, note: expect.stringMatching(/^returned /) });
    expect(await readBalance(h.core.db, h.tenantId)).toEqual({
      available: before.available + held - captured,
      held: before.held - held,
      spent: before.spent + captured,
      granted: before.granted,
    });
  });
});

describe("return-spend", () => {
  it("gives a refunded hold back to the spend counters it was counted in, never below zero", async () => {
    await h.core.db.execute(sql`
      insert into spend_limits (scope, owner, tenant_id, period, "limit") values ('tenant', ${h.tenantId}, ${h.tenantId}, 'month', 50000000)`);
    const taskId = await admitted();
    const spent = async () => {
      const [row] = await h.core.db.execute<{ spent: string }>(sql`select spent::text from spend_counters where owner = ${h.tenantId}`);
      return BigInt(row?.spent ?? "-1");
    };
    const counted = await spent();
    expect(counted).toBeGreaterThan(0n);
    await h.core.db.transaction((tx) => returnSpend(tx, taskId, 1n));
    expect(await spent()).toBe(counted - 1n);
    await h.core.db.transaction((tx) => returnSpend(tx, taskId, counted * 2n));
    expect(await spent()).toBe(0n);
  });
});

describe("record-settlement with a spend limit", () => {
  it("gives the uncaptured rest of the hold back to the spend counter with the settlement, and only once", async () => {
    await h.core.db.execute(sql`
      insert into spend_limits (scope, owner, tenant_id, period, "limit") values ('tenant', ${h.tenantId}, ${h.tenantId}, 'month', 50000000)
      on conflict do nothing`);
    const taskId = await admitted();
    const spent = async () => {
      const [row] = await h.core.db.execute<{ spent: string }>(sql`select spent::text from spend_counters where owner = ${h.tenantId}`);
      return BigInt(row?.spent ?? "-1");
    };
    const [hold] = await recentLedgerEntries(h.core.db, h.tenantId, 1);
    const held = hold?.amount ?? 0n;
    const captured = held / 4n;
    const counted = await spent();
    const recorded = await settleTwice(taskId, held, captured);
    expect(recorded).toEqual([true, false]);
    expect(await spent()).toBe(counted - (held - captured));
  });
});
