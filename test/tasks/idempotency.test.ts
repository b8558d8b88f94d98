import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { admin, parseCredits } from "../../core/index.js";
import { balance, countRows, ledgerEntries, startHarness, type Harness } from "../support/harness.js";

// Idempotency-Key on task-creating POSTs: bounds, replay, conflict, tenant scope, in-flight admissions and
// requests that are refused without using the key up. No worker: every task stays queued.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  // granted = available + held + spent, for every tenant, after every test.
  const rows = await h.core.db.execute<{ bad: number }>(
    sql`select count(*)::int as bad from credit_accounts where granted <> available + held + spent or available < 0`,
  );
  expect(rows[0]?.bad).toBe(0);
});
afterAll(async () => h?.close());

let counter = 0;
function speechBody(text = `idempotency test ${++counter}`) {
  return { voice: "en_female_aria", input: text };
}

function speech(key: string | undefined, body: unknown, apiKey?: string) {
  return h.request("POST", "/v1/audio/speech", { body, idempotencyKey: key, ...(apiKey ? { apiKey } : {}) });
}

function tasksWithKey(key: string, tenantId = h.tenantId) {
  return countRows(h, sql`select count(*)::int as n from tasks where tenant_id = ${tenantId} and idempotency_key = ${key}`);
}

function holdsFor(taskId: string) {
  return countRows(h, sql`select count(*)::int as n from credit_ledger where task_id = ${taskId} and kind = 'hold'`);
}

function jobsFor(taskId: string) {
  return countRows(
    h,
    // graphile-worker 0.17's public `jobs` view has no payload column; the payload lives in _private_jobs.
    sql`select count(*)::int as n from graphile_worker._private_jobs j
          join graphile_worker._private_tasks t on t.id = j.task_id
         where t.identifier = 'execute_task' and j.payload->>'task_id' = ${taskId}`,
  );
}

describe("Idempotency-Key bounds", () => {
  it("refuses a missing key with 422 invalid_request naming the header, and creates nothing", async () => {
    const before = await countRows(h, sql`select count(*)::int as n from tasks`);
    const response = await speech(undefined, speechBody());
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe("invalid_request");
    expect(response.body.error.retryable).toBe(false);
    expect(JSON.stringify(response.body.error.details)).toContain("Idempotency-Key");
    expect(await countRows(h, sql`select count(*)::int as n from tasks`)).toBe(before);
  });

  it("refuses an empty key", async () => {
    const response = await speech("", speechBody());
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe("invalid_request");
    expect(JSON.stringify(response.body.error.details)).toContain("Idempotency-Key");
  });

  it("refuses a 129-character key and accepts a 128-character one", async () => {
    const tooLong = await speech("k".repeat(129), speechBody());
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.error.code).toBe("invalid_request");
    expect(JSON.stringify(tooLong.body.error.details)).toContain("Idempotency-Key");
    expect(await tasksWithKey("k".repeat(129))).toBe(0);

    const longest = await speech("k".repeat(128), speechBody());
    expect(longest.status).toBe(202);
    expect(longest.body.status).toBe("queued");
    expect(await tasksWithKey("k".repeat(128))).toBe(1);
  });

  it("accepts a one-character key", async () => {
    const response = await speech("x", speechBody());
    expect(response.status).toBe(202);
  });
});

describe("replay and conflict", () => {
  it("replays the original task for the same key and body, with no second task, hold or job", async () => {
    const body = speechBody();
    const first = await speech("replay-1", body);
    expect(first.status).toBe(202);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const afterFirst = await balance(h);

    const second = await speech("replay-1", body);
    expect(second.status).toBe(202);
    expect(second.body.task_id).toBe(first.body.task_id);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.billing).toEqual(first.body.billing);

    // Key order and explicit defaults do not make a different request.
    const reordered = await speech("replay-1", { input: body.input, voice: body.voice, model: "auto", format: "mp3" });
    expect(reordered.status).toBe(202);
    expect(reordered.body.task_id).toBe(first.body.task_id);

    expect(await tasksWithKey("replay-1")).toBe(1);
    expect(await holdsFor(first.body.task_id)).toBe(1);
    expect(await jobsFor(first.body.task_id)).toBe(1);
    expect(await balance(h)).toEqual(afterFirst);
  });

  it("answers the same key with a different body with 409 idempotency_conflict", async () => {
    const first = await speech("conflict-1", speechBody("the original words"));
    expect(first.status).toBe(202);
    const before = await balance(h);

    const changed = await speech("conflict-1", speechBody("different words"));
    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe("idempotency_conflict");
    expect(changed.body.error.retryable).toBe(false);
    expect(await tasksWithKey("conflict-1")).toBe(1);
    expect(await balance(h)).toEqual(before);

    // The original identity still replays afterwards.
    const again = await speech("conflict-1", speechBody("the original words"));
    expect(again.status).toBe(202);
    expect(again.body.task_id).toBe(first.body.task_id);
  });

  it("replays without charging again even when the balance could no longer pay", async () => {
    const tenant = await h.newTenant("0.001000");
    // 10 weighted characters on hd: 1,000 micro-credits, the whole balance.
    const body = { voice: "en_female_aria", input: "0123456789" };
    const first = await speech("replay-broke", body, tenant.apiKey);
    expect(first.status).toBe(202);
    expect(first.body.billing.charged_credits).toBe("0.001000");
    expect((await balance(h, tenant.tenantId)).available).toBe(0n);

    const replay = await speech("replay-broke", body, tenant.apiKey);
    expect(replay.status).toBe(202);
    expect(replay.body.task_id).toBe(first.body.task_id);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await ledgerEntries(h, tenant.tenantId)).map((e) => e.kind)).toEqual(["grant", "hold"]);
  });

  it("lets exactly one of many concurrent different bodies under one key through", async () => {
    const key = "race-different-bodies";
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => speech(key, speechBody(`variant ${i}`))));
    const accepted = responses.filter((r) => r.status === 202);
    expect(accepted).toHaveLength(1);
    for (const r of responses.filter((r) => r.status !== 202)) {
      expect(r.status).toBe(409);
      expect(["idempotency_conflict", "request_in_progress"]).toContain(r.body.error.code);
    }
    expect(await tasksWithKey(key)).toBe(1);
  });

  it("scopes keys to the tenant: another tenant with the same key gets its own task", async () => {
    const other = await h.newTenant("10");
    const body = speechBody();
    const mine = await speech("shared-key", body);
    const theirs = await speech("shared-key", body, other.apiKey);
    expect(mine.status).toBe(202);
    expect(theirs.status).toBe(202);
    expect(theirs.body.task_id).not.toBe(mine.body.task_id);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(await tasksWithKey("shared-key")).toBe(1);
    expect(await tasksWithKey("shared-key", other.tenantId)).toBe(1);
    const theirLedger = await ledgerEntries(h, other.tenantId);
    expect(theirLedger.filter((e) => e.kind === "hold")).toEqual([
      { kind: "hold", amount: expect.any(String), task_id: theirs.body.task_id },
    ]);

    // And a different body under the same key in the other tenant is not a conflict with this tenant's request.
    const third = await h.newTenant("10");
    const fresh = await speech("shared-key", speechBody("something else entirely"), third.apiKey);
    expect(fresh.status).toBe(202);
  });
});

describe("the 24-hour window", () => {
  it("remembers a key for exactly 24 hours", async () => {
    const response = await speech("window-1", speechBody());
    expect(response.status).toBe(202);
    const rows = await h.core.db.execute<{ seconds: number; task_id: string }>(sql`
      select extract(epoch from expires_at - created_at)::int as seconds, task_id
        from idempotency_keys where tenant_id = ${h.tenantId} and key = 'window-1'`);
    expect(rows[0]).toEqual({ seconds: 24 * 60 * 60, task_id: response.body.task_id });
  });

  it("treats a key past its window as new: same or different body makes a new task", async () => {
    const body = speechBody();
    const first = await speech("window-2", body);
    expect(first.status).toBe(202);
    await h.core.db.execute(sql`
      update idempotency_keys set expires_at = now() - interval '1 second'
       where tenant_id = ${h.tenantId} and key = 'window-2'`);

    const again = await speech("window-2", body);
    expect(again.status).toBe(202);
    expect(again.body.task_id).not.toBe(first.body.task_id);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(await holdsFor(again.body.task_id)).toBe(1);
    // The key now belongs to the new task for its own 24 hours.
    const replay = await speech("window-2", body);
    expect(replay.body.task_id).toBe(again.body.task_id);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");

    await h.core.db.execute(sql`
      update idempotency_keys set expires_at = now() - interval '1 second'
       where tenant_id = ${h.tenantId} and key = 'window-2'`);
    const changed = await speech("window-2", speechBody("new work after the window"));
    expect(changed.status).toBe(202);
    expect(await tasksWithKey("window-2")).toBe(3);
  });
});

describe("a key still being admitted", () => {
  it("answers 409 request_in_progress while another transaction holds the admission lock, then admits", async () => {
    const key = "in-flight-1";
    const body = speechBody();
    const client = postgres(h.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const holder = client
        .begin(async (tx) => {
          await tx`select pg_advisory_xact_lock(hashtextextended(${h.tenantId}::text || ':' || ${key}::text, 0))`;
          locked();
          await released;
          throw new Error("roll back");
        })
        .catch((error: Error) => {
          if (error.message !== "roll back") throw error;
        });
      await lockTaken;

      const blocked = await speech(key, body);
      expect(blocked.status).toBe(409);
      expect(blocked.body.error.code).toBe("request_in_progress");
      expect(blocked.body.error.retryable).toBe(true);
      expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await tasksWithKey(key)).toBe(0);

      release();
      await holder;

      const admitted = await speech(key, body);
      expect(admitted.status).toBe(202);
      expect(admitted.headers.get("idempotent-replayed")).toBeNull();
      expect(await tasksWithKey(key)).toBe(1);
    } finally {
      await client.end();
    }
  });

  it("makes exactly one task, one hold and one job from fifty concurrent identical requests", async () => {
    const key = "fifty-at-once";
    const body = speechBody();
    const before = await balance(h);
    const responses = await Promise.all(Array.from({ length: 50 }, () => speech(key, body)));

    const accepted = responses.filter((r) => r.status === 202);
    const others = responses.filter((r) => r.status !== 202);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    const ids = new Set(accepted.map((r) => r.body.task_id as string));
    expect(ids.size).toBe(1);
    for (const r of others) {
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe("request_in_progress");
      expect(r.body.error.retryable).toBe(true);
      expect(r.headers.get("retry-after")).toMatch(/^\d+$/);
    }
    const taskId = [...ids][0]!;
    // Exactly one of the 202s is the original admission; the rest are replays.
    expect(accepted.filter((r) => r.headers.get("idempotent-replayed") !== "true")).toHaveLength(1);

    expect(await tasksWithKey(key)).toBe(1);
    expect(await holdsFor(taskId)).toBe(1);
    expect(await jobsFor(taskId)).toBe(1);
    const after = await balance(h);
    const hold = parseCredits(accepted[0]!.body.billing.charged_credits);
    expect(after.held - before.held).toBe(hold);
    expect(before.available - after.available).toBe(hold);

    // A client that got request_in_progress and retries with the same key now gets the one task.
    const retry = await speech(key, body);
    expect(retry.status).toBe(202);
    expect(retry.body.task_id).toBe(taskId);
  });
});

describe("rejected requests do not use up the key", () => {
  it("a validation failure leaves the key free for a valid body", async () => {
    const key = "after-422";
    const invalid = await speech(key, { voice: "en_female_aria", input: "" });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.code).toBe("invalid_request");
    const outOfRange = await speech(key, { ...speechBody(), speed: 7 });
    expect(outOfRange.status).toBe(422);
    expect(await tasksWithKey(key)).toBe(0);

    const valid = await speech(key, speechBody());
    expect(valid.status).toBe(202);
    expect(valid.headers.get("idempotent-replayed")).toBeNull();
    expect(await tasksWithKey(key)).toBe(1);
  });

  it("an auth failure leaves the key free", async () => {
    const key = "after-401";
    const body = speechBody();
    const refused = await h.request("POST", "/v1/audio/speech", { body, idempotencyKey: key, apiKey: null });
    expect(refused.status).toBe(401);
    const valid = await speech(key, body);
    expect(valid.status).toBe(202);
    expect(valid.headers.get("idempotent-replayed")).toBeNull();
  });

  it("a 402 leaves nothing behind and the same key works once credits are granted", async () => {
    const poor = await h.newTenant("0.000001");
    const key = "after-402";
    const body = speechBody("a request that costs more than one micro-credit");
    const before = await balance(h, poor.tenantId);

    const refused = await speech(key, body, poor.apiKey);
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe("insufficient_balance");
    expect(refused.body.error.retryable).toBe(false);
    expect(await tasksWithKey(key, poor.tenantId)).toBe(0);
    expect(await balance(h, poor.tenantId)).toEqual(before);
    expect((await ledgerEntries(h, poor.tenantId)).map((e) => e.kind)).toEqual(["grant"]);

    await admin.grantTenantCredits(h.core.db, poor.tenantId, parseCredits("1"), "top-up");
    const admitted = await speech(key, body, poor.apiKey);
    expect(admitted.status).toBe(202);
    expect(admitted.headers.get("idempotent-replayed")).toBeNull();
    expect(await tasksWithKey(key, poor.tenantId)).toBe(1);
    expect((await ledgerEntries(h, poor.tenantId)).map((e) => e.kind)).toEqual(["grant", "grant", "hold"]);
  });

  it("an unknown voice (404 before admission) leaves the key free", async () => {
    const key = "after-404-voice";
    const refused = await speech(key, { voice: "no_such_voice", input: "hello" });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe("voice_not_found");
    const valid = await speech(key, speechBody());
    expect(valid.status).toBe(202);
  });
});
