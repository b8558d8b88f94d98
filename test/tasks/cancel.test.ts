import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { timeOrderedId } from "../../core/ids.js";
import { balance, countRows, ledgerEntries, startHarness, waitForTask, type ApiResponse, type Harness } from "../support/harness.js";

// Cancel (terminal → final state, queued → canceled with a full refund, running on a vendor that cannot stop →
// 409 conflict), 404 task_not_found for unknown and foreign ids alike, tenant isolation and list pagination.
// The first block runs with no worker, so tasks stay queued; the second starts the real worker.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterEach(async () => {
  const broken = await countRows(
    h,
    sql`select count(*)::int as n from credit_accounts where granted <> available + held + spent or available < 0`,
  );
  expect(broken).toBe(0);
});
afterAll(async () => h?.close());

let keyCounter = 0;
function createSpeech(body: Record<string, unknown> = {}, apiKey?: string) {
  return h.request("POST", "/v1/audio/speech", {
    body: { voice: "en_female_aria", input: `cancel test ${++keyCounter}`, ...body },
    idempotencyKey: `cancel-${keyCounter}`,
    ...(apiKey ? { apiKey } : {}),
  });
}

function cancel(taskId: string, options: { apiKey?: string; body?: unknown } = {}) {
  return h.request("POST", `/v1/tasks/${taskId}/cancel`, options);
}

function taskLedger(entries: { kind: string; amount: string; task_id: string | null }[], taskId: string) {
  return entries.filter((e) => e.task_id === taskId).map((e) => ({ kind: e.kind, amount: e.amount }));
}

// An error body with the task id it names replaced and the request id dropped, for comparing two 404s.
function normalized404(response: ApiResponse, taskId: string) {
  const body = JSON.parse(JSON.stringify(response.body).replaceAll(taskId, "<task_id>"));
  expect(typeof body.error.request_id).toBe("string");
  delete body.error.request_id;
  return { status: response.status, body };
}

function jobsFor(taskId: string) {
  return countRows(
    h,
    sql`select count(*)::int as n from graphile_worker._private_jobs j
          join graphile_worker._private_tasks t on t.id = j.task_id
         where t.identifier = 'execute_task' and j.payload->>'task_id' = ${taskId}`,
  );
}

async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let canceledTaskId = "";
let canceledEnvelope: Record<string, unknown> = {};

describe("without a worker", () => {
  it("cancels a queued task on the spot with a full refund", async () => {
    const start = await balance(h);
    const created = await createSpeech();
    expect(created.status).toBe(202);
    expect(created.body.status).toBe("queued");
    const taskId = created.body.task_id as string;
    const charged = created.body.billing.charged_credits as string;
    expect(charged).not.toBe("0.000000");

    const before = Date.now();
    const response = await cancel(taskId, { body: { reason: "changed my mind" } });
    expect(response.status).toBe(200);
    expect(response.body.task_id).toBe(taskId);
    expect(response.body.status).toBe("canceled");
    expect(typeof response.body.cancel_requested_at).toBe("string");
    expect(Math.abs(Date.parse(response.body.cancel_requested_at) - before)).toBeLessThan(10_000);
    expect(response.body.completed_at).not.toBeNull();
    expect(response.body.error).toBeNull();
    expect(response.body.billing.charged_credits).toBe(charged);
    expect(response.body.billing.refunded_credits).toBe(charged);
    expect(response.body.billing.net_charged_credits).toBe("0.000000");

    const entries = taskLedger(await ledgerEntries(h), taskId);
    expect(entries.map((e) => e.kind)).toEqual(["hold", "release"]);
    expect(entries[1]!.amount).toBe(entries[0]!.amount);
    expect(await balance(h)).toEqual(start);

    const read = await h.request("GET", `/v1/tasks/${taskId}`);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe("canceled");
    expect(read.body.cancel_requested_at).toBe(response.body.cancel_requested_at);
    canceledTaskId = taskId;
    canceledEnvelope = read.body;
  });

  it("settles a queued task once when many cancels race", async () => {
    const created = await createSpeech();
    const taskId = created.body.task_id as string;
    const responses = await Promise.all(Array.from({ length: 10 }, () => cancel(taskId)));
    for (const r of responses) {
      expect(r.status).toBe(200);
      expect(r.body.status).toBe("canceled");
    }
    expect(new Set(responses.map((r) => r.body.cancel_requested_at)).size).toBe(1);
    expect(taskLedger(await ledgerEntries(h), taskId).map((e) => e.kind)).toEqual(["hold", "release"]);
  });

  it("refuses a malformed cancel body with 422 and leaves the task alone", async () => {
    const created = await createSpeech();
    const response = await cancel(created.body.task_id, { body: { reason: 42 } });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe("invalid_request");
    const read = await h.request("GET", `/v1/tasks/${created.body.task_id}`);
    expect(read.body.status).toBe("queued");
    expect(read.body.cancel_requested_at).toBeNull();
  });

  it("answers unknown and foreign task ids with the same 404 task_not_found", async () => {
    const other = await h.newTenant("10");
    const theirs = await createSpeech({}, other.apiKey);
    expect(theirs.status).toBe(202);
    const foreignId = theirs.body.task_id as string;
    const unknownId = timeOrderedId("task");

    const cancelUnknown = await cancel(unknownId);
    const cancelForeign = await cancel(foreignId);
    expect(cancelUnknown.status).toBe(404);
    expect(cancelUnknown.body.error.code).toBe("task_not_found");
    expect(cancelUnknown.body.error.retryable).toBe(false);
    expect(normalized404(cancelForeign, foreignId)).toEqual(normalized404(cancelUnknown, unknownId));

    const getUnknown = await h.request("GET", `/v1/tasks/${unknownId}`);
    const getForeign = await h.request("GET", `/v1/tasks/${foreignId}`);
    expect(getUnknown.status).toBe(404);
    expect(getUnknown.body.error.code).toBe("task_not_found");
    expect(normalized404(getForeign, foreignId)).toEqual(normalized404(getUnknown, unknownId));

    // An id that is not even id-shaped is just as unknown.
    const malformed = await cancel("not-a-task");
    expect(malformed.status).toBe(404);
    expect(malformed.body.error.code).toBe("task_not_found");

    // The foreign cancel attempt changed nothing for its owner.
    const ownerView = await h.request("GET", `/v1/tasks/${foreignId}`, { apiKey: other.apiKey });
    expect(ownerView.status).toBe(200);
    expect(ownerView.body.status).toBe("queued");
    expect(ownerView.body.cancel_requested_at).toBeNull();
    expect((await ledgerEntries(h, other.tenantId)).map((e) => e.kind)).toEqual(["grant", "hold"]);

    // Each tenant's list holds only its own tasks.
    const theirList = await h.request("GET", "/v1/tasks?limit=100", { apiKey: other.apiKey });
    expect(theirList.status).toBe(200);
    expect(theirList.body.data.map((t: { task_id: string }) => t.task_id)).toEqual([foreignId]);
    const myList = await h.request("GET", "/v1/tasks?limit=100");
    const myIds = myList.body.data.map((t: { task_id: string }) => t.task_id);
    expect(myIds).not.toContain(foreignId);
    expect(myIds).toContain(canceledTaskId);
  });

  it("pages GET /v1/tasks newest first with a cursor, without duplicates", async () => {
    const tenant = await h.newTenant("10");
    const createdIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await createSpeech({}, tenant.apiKey);
      expect(created.status).toBe(202);
      createdIds.push(created.body.task_id);
    }

    const pages: { task_id: string; created_at: string }[][] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const query: string = `/v1/tasks?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const response = await h.request("GET", query, { apiKey: tenant.apiKey });
      expect(response.status).toBe(200);
      expect(response.body.object).toBe("list");
      pages.push(response.body.data);
      if (!response.body.has_more) {
        expect(response.body.next_cursor).toBeNull();
        break;
      }
      expect(typeof response.body.next_cursor).toBe("string");
      cursor = response.body.next_cursor;
    }
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    const listed = pages.flat();
    expect(new Set(listed.map((t) => t.task_id)).size).toBe(5);
    expect(listed.map((t) => t.task_id)).toEqual([...createdIds].reverse());
    for (let i = 1; i < listed.length; i++) {
      expect(Date.parse(listed[i - 1]!.created_at)).toBeGreaterThanOrEqual(Date.parse(listed[i]!.created_at));
    }
  });

  it("refuses a malformed cursor with 400 invalid_cursor", async () => {
    const response = await h.request("GET", "/v1/tasks?cursor=garbage");
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("invalid_cursor");
    expect(response.body.error.retryable).toBe(false);
    // Decodable but not a cursor this service issued.
    const forged = Buffer.from(JSON.stringify({ v: 1, before: "'; drop table tasks; --" })).toString("base64url");
    const refused = await h.request("GET", `/v1/tasks?cursor=${forged}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("invalid_cursor");
  });
});

describe("with the worker running", () => {
  beforeAll(async () => {
    await h.startWorker();
  });

  it("leaves a canceled task canceled when its job runs later", async () => {
    await waitUntil(async () => (await jobsFor(canceledTaskId)) === 0, "the canceled task's job to be processed");
    const read = await h.request("GET", `/v1/tasks/${canceledTaskId}`);
    expect(read.body.status).toBe("canceled");
    expect(read.body.started_at).toBeNull();
    expect(read.body.billing).toEqual(canceledEnvelope.billing);
    expect(taskLedger(await ledgerEntries(h), canceledTaskId).map((e) => e.kind)).toEqual(["hold", "release"]);
  });

  it("returns a terminal task's final state on cancel, again and again, with no further ledger entries", async () => {
    for (let i = 0; i < 2; i++) {
      const again = await cancel(canceledTaskId);
      expect(again.status).toBe(200);
      expect(again.body.status).toBe("canceled");
      expect(again.body.cancel_requested_at).toBe(canceledEnvelope.cancel_requested_at);
      expect(again.body.completed_at).toBe(canceledEnvelope.completed_at);
      expect(again.body.billing).toEqual(canceledEnvelope.billing);
    }

    const created = await createSpeech();
    const done = await waitForTask(h, created.body.task_id, ["succeeded", "failed", "canceled"]);
    expect(done.status).toBe("succeeded");
    const settled = await ledgerEntries(h);
    const late = await cancel(created.body.task_id, { body: { reason: "too late" } });
    expect(late.status).toBe(200);
    expect(late.body.status).toBe("succeeded");
    expect(late.body.cancel_requested_at).toBeNull();
    expect(late.body.billing).toEqual(done.billing);
    expect(late.body.usage).toEqual(done.usage);
    expect(taskLedger(settled, created.body.task_id).map((e) => e.kind)).toEqual(["hold", "capture"]);

    // Other tasks of this tenant may settle meanwhile; these two tasks' entries must not move.
    const ledgerAfter = await ledgerEntries(h);
    expect(taskLedger(ledgerAfter, created.body.task_id)).toEqual(taskLedger(settled, created.body.task_id));
    expect(taskLedger(ledgerAfter, canceledTaskId).map((e) => e.kind)).toEqual(["hold", "release"]);
  });

  it("answers 409 conflict with details.action for a running task that cannot be stopped", async () => {
    // Let every earlier task finish first, so the scripted hang is taken by this test's task alone.
    await waitUntil(
      async () => (await countRows(h, sql`select count(*)::int as n from tasks where status in ('queued', 'running')`)) === 0,
      "earlier tasks to finish",
    );
    await fetch(`${h.emulatorUrl}/_emulator/requests`, { method: "DELETE" });
    const scripted = await fetch(`${h.emulatorUrl}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ family: "vendorA", model: "vendorA-speech-2.8-turbo", kind: "hang" }),
    });
    expect(scripted.status).toBe(201);

    const created = await createSpeech({ model: "vendorA-speech-2.8-turbo" });
    expect(created.status).toBe(202);
    const taskId = created.body.task_id as string;
    await waitForTask(h, taskId, ["running"]);
    // The vendor has the request in hand and is not answering.
    await waitUntil(async () => {
      const log = (await (await fetch(`${h.emulatorUrl}/_emulator/requests`)).json()) as { model: string | null }[];
      return log.some((r) => r.model === "vendorA-speech-2.8-turbo");
    }, "the vendor to receive the submit");

    const response = await cancel(taskId, { body: { reason: "stop it" } });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe("conflict");
    expect(response.body.error.retryable).toBe(false);
    expect(typeof response.body.error.details?.action).toBe("string");
    expect(response.body.error.details.action.length).toBeGreaterThan(0);
    expect(response.body.error.details.action).toMatch(/poll/i);

    // Execution continues: still running, nothing settled, the hold stays held.
    const read = await h.request("GET", `/v1/tasks/${taskId}`);
    expect(read.body.status).toBe("running");
    expect(read.body.billing.refunded_credits).toBe("0.000000");
    expect(taskLedger(await ledgerEntries(h), taskId).map((e) => e.kind)).toEqual(["hold"]);

    // Asking again gives the same answer.
    const again = await cancel(taskId);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("conflict");

    // The model's card said so beforehand; a family whose jobs can be stopped says the opposite.
    expect((await h.request("GET", "/v1/catalog/models/vendorA-speech-2.8-turbo")).body.cancel_while_running).toBe(false);
    expect((await h.request("GET", "/v1/catalog/models/vendorB-2")).body.cancel_while_running).toBe(true);
  });
});
