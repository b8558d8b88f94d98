import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balance, countRows, startHarness, type ApiResponse, type Harness } from "../support/harness.js";

// 1,000 creates at once over 100 Idempotency-Keys (ten requests per key, identical bodies): every request is
// either admitted (202) or told that its twin is being admitted (409 request_in_progress, retryable); retrying
// those settles every key on one task. Exactly 100 tasks and 100 holds exist in the end.
const KEYS = 100;
const PER_KEY = 10;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ credits: "1000" });
});
afterAll(async () => h?.close());

const bodyFor = (key: number) => ({ voice: "en_female_aria", input: `Concurrent request number ${key}.` });

function create(key: number): Promise<ApiResponse> {
  return h.request("POST", "/v1/audio/speech", { idempotencyKey: `concurrent-${key}`, body: bodyFor(key) });
}

describe("1,000 concurrent creates over 100 idempotency keys", () => {
  it("admit exactly one task and one hold per key", async () => {
    // A key's ten requests leave side by side, so they meet at the server.
    const requests = Array.from({ length: KEYS * PER_KEY }, (_, i) => Math.floor(i / PER_KEY));
    const answers = await Promise.all(requests.map(async (key) => ({ key, response: await create(key) })));

    const statuses = new Map<string, number>();
    for (const { response } of answers) {
      const label = response.status === 202 ? "202" : `${response.status} ${response.body?.error?.code}`;
      statuses.set(label, (statuses.get(label) ?? 0) + 1);
    }
    expect([...statuses.keys()].filter((label) => label !== "202" && label !== "409 request_in_progress")).toEqual([]);
    for (const { response } of answers.filter((answer) => answer.response.status === 409)) {
      expect(response.body.error.retryable).toBe(true);
    }

    // Each key's admitted answers name one task; a key whose every request met a twin in flight gets it on retry.
    const taskOf = new Map<number, Set<string>>();
    for (const { key, response } of answers) {
      if (response.status === 202) taskOf.set(key, (taskOf.get(key) ?? new Set()).add(response.body.task_id));
    }
    for (let key = 0; key < KEYS; key++) {
      const retried = await create(key);
      expect(retried.status).toBe(202);
      expect(retried.headers.get("idempotent-replayed")).toBe("true");
      taskOf.set(key, (taskOf.get(key) ?? new Set()).add(retried.body.task_id));
    }
    expect([...taskOf.values()].map((ids) => ids.size)).toEqual(Array(KEYS).fill(1));

    const taskIds = [...taskOf.values()].map((ids) => [...ids][0] as string);
    expect(new Set(taskIds).size).toBe(KEYS);
    expect(await countRows(h, sql`select count(*)::int as n from tasks where tenant_id = ${h.tenantId}`)).toBe(KEYS);
    expect(await countRows(h, sql`select count(*)::int as n from credit_ledger where tenant_id = ${h.tenantId} and kind = 'hold'`)).toBe(KEYS);
    const held = await h.core.db.execute<{ total: string }>(sql`
      select coalesce(sum(held_micro), 0)::text as total from tasks where tenant_id = ${h.tenantId}`);
    expect((await balance(h)).held).toBe(BigInt(held[0]?.total ?? "-1"));
  }, 120_000);
});
