import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, waitForTask, type Harness } from "../support/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: false, credits: "100" });
});
afterAll(async () => {
  await h?.close();
});

interface StreamEvent {
  id: string | undefined;
  event: string;
  data: { status?: string; task_id?: string; progress?: unknown };
}

// Reads a text/event-stream answer to its end (the server ends it with the task), as an EventSource would parse it.
async function readStream(taskId: string, headers: Record<string, string> = {}, onEvent?: (event: StreamEvent) => void) {
  const response = await fetch(`${h.baseUrl}/v1/tasks/${taskId}/events`, { headers: { authorization: `Bearer ${h.apiKey}`, ...headers } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const events: StreamEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = new Map<string, string>();
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
      }
      if (!fields.has("data")) continue;
      const event = { id: fields.get("id"), event: fields.get("event") ?? "message", data: JSON.parse(fields.get("data") as string) };
      events.push(event);
      onEvent?.(event);
    }
  }
  return events;
}

const SPEECH = { voice: "en_female_aria", input: "A streamed task.", format: "wav", sample_rate: 16000 };

describe("GET /v1/tasks/{id}/events", () => {
  it("delivers the task's state, every transition once, then the final envelope, and ends", async () => {
    const created = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "stream-1", body: SPEECH });
    const taskId = created.body.task_id as string;
    let started = false;
    const events = await readStream(taskId, {}, (event) => {
      if (!started) {
        started = true;
        void h.startWorker();
      }
      expect(event.data).toBeDefined();
    });
    expect(events[0]).toMatchObject({ event: "status", id: "0", data: { task_id: taskId, status: "queued" } });
    const final = events.at(-1) as StreamEvent;
    expect(final.event).toBe("task");
    expect(final.data).toMatchObject({ object: "task", task_id: taskId, status: "succeeded" });
    const changes = events.slice(1, -1);
    expect(changes.map((e) => e.data.status)).toContain("running");
    expect(changes.at(-1)).toMatchObject({ event: "status", data: { status: "succeeded" } });
    const ids = changes.map((e) => BigInt(e.id as string));
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => (a < b ? -1 : 1)));

    // Each recorded change of the task came through exactly once, in order.
    const recorded = await h.core.reads<{ seq: string; kind: string; status: string }[]>`
      select seq::text as seq, kind, status from task_events where task_id = ${taskId} order by task_events.seq`;
    expect(changes.map((e) => ({ seq: e.id, kind: e.event, status: e.data.status }))).toEqual(recorded);
    const read = await h.request("GET", `/v1/tasks/${taskId}`);
    const { completed_at, billing, usage } = read.body;
    expect(final.data).toMatchObject({ completed_at, billing, usage });

    // Resuming after the first change gives the rest, then the envelope; after the last, the envelope alone.
    const resumed = await readStream(taskId, { "last-event-id": changes[0]!.id as string });
    expect(resumed.map((e) => e.id ?? e.event)).toEqual([...changes.slice(1).map((e) => e.id), "task"]);
    const afterEnd = await readStream(taskId, { "last-event-id": changes.at(-1)!.id as string });
    expect(afterEnd.map((e) => e.event)).toEqual(["task"]);

    // Without Last-Event-ID, an ended task's stream is its state and its envelope.
    const late = await readStream(taskId);
    expect(late.map((e) => [e.event, e.data.status])).toEqual([
      ["status", "succeeded"],
      ["task", "succeeded"],
    ]);
    expect(late[0]!.id).toBe(changes.at(-1)!.id);
  });

  it("delivers changes in numeric order across a power of ten of their ids", async () => {
    await h.stopWorker();
    const created = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "stream-digits", body: SPEECH });
    const taskId = created.body.task_id as string;
    // The task's changes get ids from 9998 on (the file's earlier tasks used a few dozen), so a text order would
    // send 10000 before 9998.
    await h.core.db.execute(sql`select setval(pg_get_serial_sequence('task_events', 'seq'), 9997)`);
    for (let percent = 10; percent <= 40; percent += 10) {
      await h.core.db.execute(sql`update tasks set progress = ${JSON.stringify({ percent })}::jsonb where id = ${taskId}`);
    }
    await h.startWorker();
    await waitForTask(h, taskId, ["succeeded"]);
    const events = await readStream(taskId, { "last-event-id": "0" });
    const ids = events.slice(0, -1).map((e) => BigInt(e.id as string));
    expect(ids[0]).toBe(9998n);
    expect(ids.at(-1)! >= 10_000n).toBe(true);
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    expect(events.at(-1)).toMatchObject({ event: "task", data: { status: "succeeded" } });
  });

  it("answers task_not_found as JSON for another tenant's task, and 401 without a key", async () => {
    const created = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "stream-2", body: SPEECH });
    const other = await h.newTenant();
    const foreign = await h.request("GET", `/v1/tasks/${created.body.task_id}/events`, { apiKey: other.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("task_not_found");
    const anonymous = await h.request("GET", `/v1/tasks/${created.body.task_id}/events`, { apiKey: null });
    expect(anonymous.status).toBe(401);
  });
});
