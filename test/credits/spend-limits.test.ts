import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCredits, setSpendLimit } from "../../core/index.js";
import { periodEnd } from "../../core/credits/spend-limits.js";
import { parseSpendLimit } from "../../cli/spend-limit-command.js";
import { balance, countRows, ledgerEntries, startHarness, type Harness } from "../support/harness.js";

// Spend limits per API key and per tenant, checked in the admission's own write: over a limit nothing is held,
// concurrent creates admit exactly what fits, a refund gives its spend back, and the error says when it resets.
// No worker runs: admitted tasks stay queued with their holds, so what is held is what the limits counted.

let h: Harness;
let keyCounter = 0;
// The hold of one speech task below, read from the first admission.
let price: bigint;

beforeAll(async () => {
  h = await startHarness();
  const first = await speech(h.apiKey);
  expect(first.status).toBe(202);
  const hold = (await ledgerEntries(h)).find((e) => e.kind === "hold" && e.task_id === first.body.task_id);
  price = BigInt(hold?.amount ?? "0");
  expect(price).toBeGreaterThan(0n);
});
afterAll(async () => h?.close());

const speech = (apiKey: string, idempotencyKey = `spend-${++keyCounter}`) =>
  h.request("POST", "/v1/audio/speech", { body: { voice: "en_female_aria", input: "hello", model: "vendorA-speech-2.8-hd" }, idempotencyKey, apiKey });

const nextUtcMidnight = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();

describe("spend limits", () => {
  it("refuses a key over its limit with 402, naming the limit and its reset, and holds nothing", async () => {
    const tenant = await h.newTenant("100");
    expect(await setSpendLimit(h.core.db, "key", tenant.keyId, { period: "day", limit: price * 2n - 1n })).toBe(true);
    expect((await speech(tenant.apiKey)).status).toBe(202);
    const before = await balance(h, tenant.tenantId);

    const refused = await speech(tenant.apiKey);
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe("insufficient_balance");
    expect(refused.body.error.retryable).toBe(false);
    expect(refused.body.error.details.spend_limit).toEqual({
      scope: "key",
      owner: tenant.keyId,
      period: "day",
      limit_credits: formatCredits(price * 2n - 1n),
      spent_credits: formatCredits(price),
      remaining_credits: formatCredits(price - 1n),
      resets_at: nextUtcMidnight(new Date()),
    });
    expect(refused.body.error.message).toContain("daily spend limit of API key");
    expect(await balance(h, tenant.tenantId)).toEqual(before);
    expect((await ledgerEntries(h, tenant.tenantId)).filter((e) => e.kind === "hold")).toHaveLength(1);
    expect(await countRows(h, sql`select count(*)::int as n from tasks where tenant_id = ${tenant.tenantId}`)).toBe(1);

    const credits = await h.request("GET", "/v1/credits", { apiKey: tenant.apiKey });
    expect(credits.status).toBe(200);
    expect(credits.body.spend_limits).toEqual([
      {
        scope: "key",
        owner: tenant.keyId,
        period: "day",
        limit_credits: formatCredits(price * 2n - 1n),
        spent_credits: formatCredits(price),
        resets_at: nextUtcMidnight(new Date()),
      },
    ]);
  });

  it("admits exactly what fits a tenant's limit out of 30 concurrent creates", async () => {
    const tenant = await h.newTenant("100");
    await setSpendLimit(h.core.db, "tenant", tenant.tenantId, { period: "month", limit: price * 7n });
    const responses = await Promise.all(Array.from({ length: 30 }, () => speech(tenant.apiKey)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(7);
    expect(statuses.filter((s) => s === 402)).toHaveLength(23);
    for (const refused of responses.filter((r) => r.status === 402)) expect(refused.body.error.details.spend_limit.scope).toBe("tenant");
    expect((await balance(h, tenant.tenantId)).held).toBe(price * 7n);
    const counted = await countRows(h, sql`select spent::int as n from spend_counters where scope = 'tenant' and owner = ${tenant.tenantId}`);
    expect(BigInt(counted)).toBe(price * 7n);
  });

  it("gives a refund's spend back to the limits it was counted under", async () => {
    const tenant = await h.newTenant("100");
    await setSpendLimit(h.core.db, "key", tenant.keyId, { period: "day", limit: price });
    await setSpendLimit(h.core.db, "tenant", tenant.tenantId, { period: "day", limit: price });
    const first = await speech(tenant.apiKey);
    expect(first.status).toBe(202);
    expect((await speech(tenant.apiKey)).status).toBe(402);

    const canceled = await h.request("POST", `/v1/tasks/${first.body.task_id}/cancel`, { apiKey: tenant.apiKey });
    expect(canceled.body.status).toBe("canceled");
    expect((await speech(tenant.apiKey)).status).toBe(202);
  });

  it("removes a limit and refuses an unknown owner", async () => {
    const tenant = await h.newTenant("100");
    await setSpendLimit(h.core.db, "key", tenant.keyId, { period: "day", limit: 0n });
    expect((await speech(tenant.apiKey)).status).toBe(402);
    await setSpendLimit(h.core.db, "key", tenant.keyId, null);
    expect((await speech(tenant.apiKey)).status).toBe(202);
    expect(await setSpendLimit(h.core.db, "key", "key_missing", null)).toBe(false);
  });
});

describe("periods and the command line", () => {
  it("resets at the next UTC midnight or first of the month", () => {
    const now = new Date("2026-12-31T23:59:59.999Z");
    expect(periodEnd("day", now).toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(periodEnd("month", now).toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(periodEnd("month", new Date("2026-02-10T08:00:00Z")).toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(periodEnd("day", new Date("2026-02-28T00:00:00Z")).toISOString()).toBe("2026-03-01T00:00:00.000Z");
  });

  it("parses --spend-limit", () => {
    expect(parseSpendLimit("50/day")).toEqual({ period: "day", limit: 50_000_000n });
    expect(parseSpendLimit("2.5/month")).toEqual({ period: "month", limit: 2_500_000n });
    expect(parseSpendLimit("none")).toBeNull();
    for (const bad of ["50", "50/week", "x/day", "50/day/extra"]) expect(() => parseSpendLimit(bad)).toThrow(/spend limit must be/);
  });
});
