import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, waitForTask, type Harness } from "../support/harness.js";
import { startReceiver, type Receiver } from "./receiver.js";
import { hmacHex, readmeSignatureCheck, signatureParts, SPEECH, verifySignature, waitForCallback } from "./support.js";

// Deliveries to a real receiver on loopback (the development switch on), through the real worker. The retry
// "minute" is 5 ms, so the whole schedule (1, 5, 30, 120, 720 minutes) takes under 5 seconds, and a receiver
// has 500 ms (the configurable stand-in for SPEC.md's 10 seconds) to answer.
let h: Harness;
const receivers: Receiver[] = [];

beforeAll(async () => {
  h = await startHarness({
    worker: true,
    env: {
      OUTBOUND_ALLOW_LOOPBACK_HTTP: "true",
      CALLBACK_RETRY_MINUTE_MS: "5",
      CALLBACK_TIMEOUT_MS: "500",
      WORKER_POLL_INTERVAL_MS: "20",
    },
  });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await h?.close();
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

async function createSpeech(extra: Record<string, unknown>) {
  const created = await h.request("POST", "/v1/audio/speech", { idempotencyKey: randomUUID(), body: { ...SPEECH, ...extra } });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  return created.body.task_id as string;
}

async function createSigningKey(): Promise<{ id: string; secret: string }> {
  const created = await h.request("POST", "/v1/callback-signing-keys", { body: { name: "receiver" } });
  expect(created.status).toBe(201);
  return created.body;
}

describe("a signed delivery", () => {
  it("carries SPEC.md's headers and a signature that verifies with an HMAC computed here from the raw body", async () => {
    const key = await createSigningKey();
    const r = await receiver();
    const taskId = await createSpeech({ callback_url: `${r.url}/hooks/speech?tenant=42`, callback_signing_key_id: key.id });
    const [delivery] = await r.waitForRequests(1);
    const task = await waitForCallback(h, taskId, (c) => c.status === "delivered");

    expect(delivery!.method).toBe("POST");
    expect(delivery!.path).toBe("/hooks/speech?tenant=42");
    expect(delivery!.headers["content-type"]).toBe("application/json");
    const headers = delivery!.headers;
    expect(headers["x-event-id"]).toBe(delivery!.body.event_id);
    expect(headers["x-event-id"]).toMatch(/^evt_/);
    expect(headers["x-delivery-id"]).toMatch(/^dlv_/);
    expect(headers["x-delivery-attempt"]).toBe("1");
    expect(headers["x-task-id"]).toBe(taskId);
    expect(headers["x-event-type"]).toBe("task.succeeded");
    expect(headers["x-signature-key-id"]).toBe(key.id);

    const signature = headers["x-signature"] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const { t, v1 } = signatureParts(signature);
    expect(String(t)).toBe(headers["x-timestamp"]);
    expect(Math.abs(t - delivery!.at / 1000)).toBeLessThan(5);
    expect(v1).toEqual([hmacHex(key.secret, t, delivery!.rawBody)]);
    expect(verifySignature(key.secret, signature, delivery!.rawBody)).toBe(true);
    // The check can fail: one changed byte, another secret, or a stale timestamp is refused.
    expect(verifySignature(key.secret, signature, delivery!.rawBody.replace("succeeded", "succeedeD"))).toBe(false);
    expect(verifySignature(`${key.secret}x`, signature, delivery!.rawBody)).toBe(false);
    expect(verifySignature(key.secret, signature, delivery!.rawBody, t + 301)).toBe(false);
    const readmeCheck = readmeSignatureCheck(key.secret);
    expect(readmeCheck(signature, delivery!.rawBody)).toBe(true);
    expect(readmeCheck(signature, `${delivery!.rawBody} `)).toBe(false);

    const body = delivery!.body;
    expect(Object.keys(body).sort()).toEqual(["event_id", "event_time", "event_type", "task"]);
    expect(body.event_type).toBe("task.succeeded");
    expect(body.event_time).toBe(task.completed_at);
    expect(body.task).toMatchObject({ object: "task", task_id: taskId, status: "succeeded", output: { type: "audio" } });
    expect(body.task.output.artifacts[0].url).toMatch(/^http/);
    expect(body.task.billing).toEqual(task.billing);

    expect(task.callback).toMatchObject({
      url: `${r.url}/hooks/speech?tenant=42`,
      status: "delivered",
      attempt_count: 1,
      last_error: null,
    });
    expect(new Date(task.callback.delivered_at).getTime()).toBeGreaterThanOrEqual(delivery!.at - 1000);
  });
});

describe("an unsigned delivery", () => {
  it("has the event headers and no signature headers", async () => {
    const r = await receiver();
    const taskId = await createSpeech({ callback_url: `${r.url}/plain` });
    const [delivery] = await r.waitForRequests(1);
    await waitForCallback(h, taskId, (c) => c.status === "delivered");
    expect(delivery!.headers["x-event-id"]).toBe(delivery!.body.event_id);
    expect(delivery!.headers["x-task-id"]).toBe(taskId);
    expect(delivery!.headers["x-timestamp"]).toMatch(/^\d+$/);
    expect(delivery!.headers["x-signature"]).toBeUndefined();
    expect(delivery!.headers["x-signature-key-id"]).toBeUndefined();
  });
});

describe("event types", () => {
  it("a failed task sends task.failed with its error", async () => {
    const r = await receiver();
    // The emulator's vendor refuses the next speech request on safety grounds.
    const fault = await fetch(`${h.emulatorUrl}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ family: "vendorA", model: "vendorA-speech-2.8-hd", kind: "safety" }),
    });
    expect(fault.status).toBe(201);
    await createSpeech({ callback_url: `${r.url}/failed` });
    const [delivery] = await r.waitForRequests(1);
    expect(delivery!.headers["x-event-type"]).toBe("task.failed");
    expect(delivery!.body.event_type).toBe("task.failed");
    expect(delivery!.body.task.status).toBe("failed");
    expect(delivery!.body.task.error.code).toBe("safety_rejected");
  });

  it("a canceled task sends task.canceled", async () => {
    const r = await receiver();
    await h.stopWorker();
    const taskId = await createSpeech({ callback_url: `${r.url}/canceled` });
    const canceled = await h.request("POST", `/v1/tasks/${taskId}/cancel`);
    expect(canceled.body.status).toBe("canceled");
    expect(canceled.body.callback).toMatchObject({ status: "pending", attempt_count: 0 });
    await h.startWorker();
    const [delivery] = await r.waitForRequests(1);
    expect(delivery!.body.event_type).toBe("task.canceled");
    expect(delivery!.body.task.status).toBe("canceled");
  });
});

describe("failures", () => {
  it("a receiver that never answers 2xx gets six attempts of one event, then the callback is failed", async () => {
    const r = await receiver(() => ({ status: 500, body: "database down" }));
    const taskId = await createSpeech({ callback_url: `${r.url}/down` });
    const task = await waitForCallback(h, taskId, (c) => c.status === "failed");
    expect(r.requests.map((q) => q.headers["x-delivery-attempt"])).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(new Set(r.requests.map((q) => q.headers["x-event-id"])).size).toBe(1);
    expect(new Set(r.requests.map((q) => q.headers["x-delivery-id"])).size).toBe(6);
    expect(task.callback).toMatchObject({ status: "failed", attempt_count: 6, delivered_at: null, last_error: "HTTP 500 from the receiver: database down" });
    // Nothing is scheduled after the sixth attempt.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.requests).toHaveLength(6);
  });

  it("a receiver slower than the time limit counts as a failure, and the retry is delivered", async () => {
    const r = await receiver((n) => (n === 0 ? { status: 200, delayMs: 1500 } : { status: 204 }));
    const taskId = await createSpeech({ callback_url: `${r.url}/slow` });
    const task = await waitForCallback(h, taskId, (c) => c.status === "delivered");
    expect(task.callback).toMatchObject({ attempt_count: 2, last_error: "no 2xx within 500 ms" });
    expect(r.requests.map((q) => q.headers["x-delivery-attempt"])).toEqual(["1", "2"]);
  });

  it("a 302 counts as a failure and the redirect target is never called", async () => {
    const target = await receiver();
    const r = await receiver((n) => (n === 0 ? { status: 302, headers: { location: `${target.url}/elsewhere` } } : { status: 200 }));
    const taskId = await createSpeech({ callback_url: `${r.url}/moved` });
    const task = await waitForCallback(h, taskId, (c) => c.status === "delivered");
    expect(task.callback.attempt_count).toBe(2);
    expect(task.callback.last_error).toContain("HTTP 302");
    expect(task.callback.last_error).toContain("not followed");
    expect(target.requests).toHaveLength(0);
  });

  it("an unreachable receiver counts as a failure", async () => {
    const gone = await startReceiver();
    await gone.close();
    const taskId = await createSpeech({ callback_url: `${gone.url}/gone` });
    const task = await waitForCallback(h, taskId, (c) => c.attempt_count >= 1);
    expect(task.callback.status).not.toBe("delivered");
    expect(task.callback.last_error).toMatch(/ECONNREFUSED/);
  });
});

describe("POST /v1/tasks/{task_id}/callback/redeliver", () => {
  it("sends one more attempt of the same event, signed afresh", async () => {
    const key = await createSigningKey();
    const r = await receiver();
    const taskId = await createSpeech({ callback_url: `${r.url}/again`, callback_signing_key_id: key.id });
    await waitForCallback(h, taskId, (c) => c.status === "delivered");
    const redeliver = await h.request("POST", `/v1/tasks/${taskId}/callback/redeliver`);
    expect(redeliver.status).toBe(202);
    expect(redeliver.body.callback).toMatchObject({ status: "pending", attempt_count: 1 });
    const [first, second] = await r.waitForRequests(2);
    const task = await waitForCallback(h, taskId, (c) => c.status === "delivered" && c.attempt_count === 2);
    expect(task.callback.attempt_count).toBe(2);
    expect(second!.headers["x-event-id"]).toBe(first!.headers["x-event-id"]);
    expect(second!.headers["x-delivery-id"]).not.toBe(first!.headers["x-delivery-id"]);
    expect(second!.headers["x-delivery-attempt"]).toBe("2");
    expect(verifySignature(key.secret, second!.headers["x-signature"] as string, second!.rawBody)).toBe(true);
  });

  it("refuses tasks that are not terminal, have no callback_url, or are unknown", async () => {
    await h.stopWorker();
    const r = await receiver();
    const queued = await createSpeech({ callback_url: `${r.url}/later` });
    const early = await h.request("POST", `/v1/tasks/${queued}/callback/redeliver`);
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: "conflict", details: { action: "keep_polling" } });
    await h.startWorker();

    const withoutCallback = await createSpeech({});
    await waitForTask(h, withoutCallback, ["succeeded"]);
    const none = await h.request("POST", `/v1/tasks/${withoutCallback}/callback/redeliver`);
    expect(none.status).toBe(409);
    expect(none.body.error.details.reason).toBe("no_callback_url");

    const unknown = await h.request("POST", "/v1/tasks/task_00000000000000000000000000/callback/redeliver");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("task_not_found");

    const other = await h.newTenant("10");
    await waitForCallback(h, queued, (c) => c.status === "delivered");
    const foreign = await h.request("POST", `/v1/tasks/${queued}/callback/redeliver`, { apiKey: other.apiKey });
    expect(foreign.status).toBe(404);
  });

  it("refuses while the scheduled series has an attempt pending", async () => {
    await h.stopWorker();
    const r = await receiver();
    const taskId = await createSpeech({ callback_url: `${r.url}/pending` });
    expect((await h.request("POST", `/v1/tasks/${taskId}/cancel`)).body.status).toBe("canceled");
    const busy = await h.request("POST", `/v1/tasks/${taskId}/callback/redeliver`);
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({ code: "conflict", details: { action: "wait", callback_status: "pending" } });
    await h.startWorker();
    await waitForCallback(h, taskId, (c) => c.status === "delivered");
    expect(r.requests).toHaveLength(1);
  });
});
