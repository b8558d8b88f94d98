import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatCredits, parseCredits } from "../../core/index.js";
import { balance, countRows, ledgerEntries, startHarness, waitForTask, type Harness } from "../support/harness.js";

// Credits through the real worker and the vendor emulator: hold at creation, capture on success, release on
// failure, each once, exact to the micro-credit, never negative under concurrency.

const HD = "vendorA-speech-2.8-hd";
const TURBO = "vendorA-speech-2.8-turbo";
// 4 Han ideographs × 2 + " hello" (6) = 14 weighted characters.
const HAN_TEXT = "你好世界 hello";

let h: Harness;
let keyCounter = 0;
const key = () => `credits-${++keyCounter}`;

beforeAll(async () => {
  h = await startHarness({ worker: true });
});
beforeEach(async () => {
  await clearFaults();
});
afterEach(async () => {
  await clearFaults();
  // granted = available + held + spent for every tenant, after every test, and nothing negative.
  const broken = await countRows(
    h,
    sql`select count(*)::int as n from credit_accounts
         where granted <> available + held + spent or available < 0 or held < 0 or spent < 0`,
  );
  expect(broken).toBe(0);
});
afterAll(async () => h?.close());

async function clearFaults() {
  const response = await fetch(`${h.emulatorUrl}/_emulator/faults`, { method: "DELETE" });
  expect(response.status).toBe(200);
  const log = await fetch(`${h.emulatorUrl}/_emulator/requests`, { method: "DELETE" });
  expect(log.status).toBe(200);
}

// Submit calls the emulator received since the last clearFaults().
async function vendorSubmits(): Promise<number> {
  const response = await fetch(`${h.emulatorUrl}/_emulator/requests`);
  const received = (await response.json()) as { family: string; path: string }[];
  return received.filter((r) => r.family === "vendorA" && r.path.endsWith("/t2a_v2")).length;
}

async function fault(kind: string, extra: Record<string, unknown> = {}) {
  const response = await fetch(`${h.emulatorUrl}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ family: "vendorA", kind, ...extra }),
  });
  expect(response.status).toBe(201);
}

async function newTenant(credits: string) {
  const tenant = await h.newTenant(credits);
  const speech = (body: Record<string, unknown>, idempotencyKey = key()) =>
    h.request("POST", "/v1/audio/speech", { body: { voice: "en_female_aria", ...body }, idempotencyKey, apiKey: tenant.apiKey });
  return { ...tenant, speech };
}

const waitFor = (apiKey: string, taskId: string) =>
  waitForTask(h, taskId, ["succeeded", "failed", "canceled"], { apiKey, timeoutMs: 15_000 });

function expectInvariant(b: { available: bigint; held: bigint; spent: bigint; granted: bigint }) {
  expect(b.available).toBeGreaterThanOrEqual(0n);
  expect(b.granted).toBe(b.available + b.held + b.spent);
}

function taskEntries(entries: { kind: string; amount: string; task_id: string | null }[], taskId: string) {
  return entries.filter((e) => e.task_id === taskId).map((e) => ({ kind: e.kind, amount: e.amount }));
}

describe("holds at creation", () => {
  it("refuses a request the balance cannot cover with 402 and creates or charges nothing", async () => {
    const t = await newTenant("0.001399");
    const before = await balance(h, t.tenantId);
    const response = await t.speech({ input: HAN_TEXT, model: HD });
    expect(response.status).toBe(402);
    expect(response.body.error.code).toBe("insufficient_balance");
    expect(response.body.error.retryable).toBe(false);
    expect(await countRows(h, sql`select count(*)::int as n from tasks where tenant_id = ${t.tenantId}`)).toBe(0);
    expect(await ledgerEntries(h, t.tenantId)).toEqual([{ kind: "grant", amount: "1399", task_id: null }]);
    expect(await balance(h, t.tenantId)).toEqual(before);
    expectInvariant(await balance(h, t.tenantId));
  });

  it("admits a request that costs exactly the balance", async () => {
    const t = await newTenant("0.001400");
    const response = await t.speech({ input: HAN_TEXT, model: HD });
    expect(response.status).toBe(202);
    expect(response.body.billing.charged_credits).toBe("0.001400");
    const b = await balance(h, t.tenantId);
    expect(b.available).toBe(0n);
    expectInvariant(b);
    await waitFor(t.apiKey, response.body.task_id);
  });
});

describe("weighted-character billing", () => {
  it("bills Han ideographs double on hd (auto) and captures exactly the charge on success", async () => {
    const t = await newTenant("1");
    const start = await balance(h, t.tenantId);
    const created = await t.speech({ input: HAN_TEXT });
    expect(created.status).toBe(202);
    expect(created.body.resolved_model).toBe(HD);
    expect(created.body.billing.charged_credits).toBe("0.001400");
    expect(created.body.billing.refunded_credits).toBe("0.000000");
    const held = await balance(h, t.tenantId);
    expect(held.held - start.held).toBe(1400n);
    expect(start.available - held.available).toBe(1400n);
    expectInvariant(held);

    const done = await waitFor(t.apiKey, created.body.task_id);
    expect(done.status).toBe("succeeded");
    expect(done.usage.lines).toHaveLength(1);
    expect(done.usage.lines[0]).toMatchObject({ quantity: "14", billed_amount_credits: "0.001400" });
    expect(done.usage.credits).toBe("0.001400");
    expect(done.usage.characters).toBe(10);
    expect(done.billing.charged_credits).toBe("0.001400");
    expect(done.billing.refunded_credits).toBe("0.000000");
    expect(done.billing.net_charged_credits).toBe("0.001400");

    const entries = taskEntries(await ledgerEntries(h, t.tenantId), created.body.task_id);
    expect(entries).toEqual([
      { kind: "hold", amount: "1400" },
      { kind: "capture", amount: "1400" },
    ]);
    expect(formatCredits(BigInt(entries[1]!.amount))).toBe(done.usage.credits);

    const end = await balance(h, t.tenantId);
    expect(end.held).toBe(start.held);
    expect(end.spent - start.spent).toBe(1400n);
    expect(start.available - end.available).toBe(1400n);
    expectInvariant(end);
  });

  it("bills turbo at 0.06 per 1,000 weighted characters", async () => {
    const t = await newTenant("1");
    const created = await t.speech({ input: HAN_TEXT, model: TURBO });
    expect(created.status).toBe(202);
    expect(created.body.resolved_model).toBe(TURBO);
    expect(created.body.billing.charged_credits).toBe("0.000840");
    const done = await waitFor(t.apiKey, created.body.task_id);
    expect(done.status).toBe("succeeded");
    expect(done.usage.lines[0].quantity).toBe("14");
    expect(done.usage.credits).toBe("0.000840");
    const end = await balance(h, t.tenantId);
    expect(end.spent).toBe(840n);
    expect(end.available).toBe(parseCredits("1") - 840n);
    expectInvariant(end);
  });

  it("bills linearly by weighted characters on both models", async () => {
    const t = await newTenant("1");
    // At these prices one weighted character is exactly 100 (hd) or 60 (turbo) micro-credits.
    const turbo = await t.speech({ input: "abcdefg", model: TURBO });
    expect(turbo.body.billing.charged_credits).toBe("0.000420");
    const one = await t.speech({ input: "a", model: HD });
    expect(one.body.billing.charged_credits).toBe("0.000100");
    const han = await t.speech({ input: "汉字字", model: TURBO });
    expect(han.body.billing.charged_credits).toBe("0.000360");
    for (const r of [turbo, one, han]) {
      const done = await waitFor(t.apiKey, r.body.task_id);
      expect(done.usage.credits).toBe(r.body.billing.charged_credits);
    }
    const end = await balance(h, t.tenantId);
    expect(end.spent).toBe(420n + 100n + 360n);
    expectInvariant(end);
  });
});

describe("refunds on failure", () => {
  it("releases the whole hold when the vendor rejects the input for safety", async () => {
    const t = await newTenant("1");
    const start = await balance(h, t.tenantId);
    await fault("safety");
    const created = await t.speech({ input: HAN_TEXT });
    expect(created.status).toBe(202);
    const done = await waitFor(t.apiKey, created.body.task_id);
    expect(done.status).toBe("failed");
    expect(done.error.code).toBe("safety_rejected");
    expect(done.error.retryable).toBe(false);
    // The provider's wording survives in the message.
    expect(done.error.message).toContain("content flagged by safety review");
    expect(await vendorSubmits()).toBe(1);
    expect(done.billing.charged_credits).toBe("0.001400");
    expect(done.billing.refunded_credits).toBe(done.billing.charged_credits);
    expect(done.billing.net_charged_credits).toBe("0.000000");
    expect(done.usage.credits).toBe("0.000000");

    expect(taskEntries(await ledgerEntries(h, t.tenantId), created.body.task_id)).toEqual([
      { kind: "hold", amount: "1400" },
      { kind: "release", amount: "1400" },
    ]);
    const end = await balance(h, t.tenantId);
    expect(end).toEqual(start);
    expectInvariant(end);
  });

  it("releases the whole hold after transient vendor errors exhaust the retries", async () => {
    const t = await newTenant("1");
    const start = await balance(h, t.tenantId);
    await fault("http_500", { times: 10 });
    const created = await t.speech({ input: HAN_TEXT });
    expect(created.status).toBe(202);
    const done = await waitFor(t.apiKey, created.body.task_id);
    expect(done.status).toBe("failed");
    expect(done.error.code).toBe("model_request_failed");
    expect(done.error.retryable).toBe(true);
    // Retried up to six attempts in all, then given up.
    expect(await vendorSubmits()).toBe(6);
    expect(done.billing.refunded_credits).toBe(done.billing.charged_credits);
    expect(done.billing.net_charged_credits).toBe("0.000000");
    expect(taskEntries(await ledgerEntries(h, t.tenantId), created.body.task_id)).toEqual([
      { kind: "hold", amount: "1400" },
      { kind: "release", amount: "1400" },
    ]);
    expect(await balance(h, t.tenantId)).toEqual(start);
  });

  it("retries a single transient vendor error and charges once", async () => {
    const t = await newTenant("1");
    await fault("http_500", { times: 1 });
    const created = await t.speech({ input: HAN_TEXT });
    const done = await waitFor(t.apiKey, created.body.task_id);
    expect(done.status).toBe("succeeded");
    expect(await vendorSubmits()).toBe(2);
    expect(done.usage.credits).toBe("0.001400");
    expect(done.billing.charged_credits).toBe("0.001400");
    expect(done.billing.refunded_credits).toBe("0.000000");
    expect(taskEntries(await ledgerEntries(h, t.tenantId), created.body.task_id)).toEqual([
      { kind: "hold", amount: "1400" },
      { kind: "capture", amount: "1400" },
    ]);
    const end = await balance(h, t.tenantId);
    expect(end.spent).toBe(1400n);
    expect(end.held).toBe(0n);
    expectInvariant(end);
  });
});

describe("concurrency", () => {
  it("admits exactly as many requests as the balance covers and never goes negative", async () => {
    // "hello" is 5 weighted characters: 500 micro-credits on hd; the tenant can pay for exactly three.
    const t = await newTenant("0.001500");
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.speech({ input: "hello", model: HD }, `concurrent-${i}`)),
    );
    const accepted = responses.filter((r) => r.status === 202);
    const refused = responses.filter((r) => r.status === 402);
    expect(accepted).toHaveLength(3);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r.body.error.code).toBe("insufficient_balance");
    for (const r of accepted) expect(r.body.billing.charged_credits).toBe("0.000500");

    const afterAdmission = await balance(h, t.tenantId);
    expect(afterAdmission.available).toBe(0n);
    expect(afterAdmission.held + afterAdmission.spent).toBe(1500n);
    expectInvariant(afterAdmission);
    expect(await countRows(h, sql`select count(*)::int as n from tasks where tenant_id = ${t.tenantId}`)).toBe(3);
    expect(
      await countRows(h, sql`select count(*)::int as n from credit_ledger where tenant_id = ${t.tenantId} and kind = 'hold'`),
    ).toBe(3);

    for (const r of accepted) {
      const done = await waitFor(t.apiKey, r.body.task_id);
      expect(done.status).toBe("succeeded");
    }
    const end = await balance(h, t.tenantId);
    expect(end).toEqual({ available: 0n, held: 0n, spent: 1500n, granted: 1500n });
  });
});
