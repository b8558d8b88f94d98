import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/client";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balance, countRows, ledgerEntries } from "../support/harness.js";
import { PROTOCOLS, startMcpHarness, toolError, type McpHarness } from "./support.js";

// A speech task through the MCP tools over Streamable HTTP, in both protocol revisions: create, replay, conflict,
// wait with progress, the artifact link, refusals in REST's vocabulary, and the read tools.

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness();
});
afterAll(async () => m?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const countTasks = () => countRows(m.h, sql`select count(*)::int as n from tasks`);

describe.each(PROTOCOLS)("protocol %s", (protocol) => {
  let client: Client;
  beforeAll(async () => {
    client = await m.connect({ protocol });
  });

  const speak = (clientRequestId: string | undefined, input: string, extra: Record<string, unknown> = {}) =>
    client.callTool({
      name: "svc.speech.synthesize",
      arguments: { ...(clientRequestId !== undefined ? { client_request_id: clientRequestId } : {}), voice: "en_female_aria", input, ...extra },
    });

  it("creates a speech task once for a client_request_id: a replay is the same task and one charge", async () => {
    const id = randomUUID();
    const before = await balance(m.h);
    const created = await speak(id, `Hello over ${protocol}.`);
    expect(created.isError).toBeFalsy();
    const task = created.structuredContent as Any;
    expect(task).toMatchObject({ object: "task", status: "queued", capability: "text_to_speech" });
    expect(task.social).toMatchObject({ platform: "mcp", operation_name: "svc.speech.synthesize" });
    expect(JSON.parse((created.content as Any)[0].text).task_id).toBe(task.task_id);

    const replay = await speak(id, `Hello over ${protocol}.`);
    expect(replay.isError).toBeFalsy();
    expect((replay.structuredContent as Any).task_id).toBe(task.task_id);
    expect(replay._meta?.["svc/idempotent_replayed"]).toBe(true);
    expect(created._meta?.["svc/idempotent_replayed"]).toBeUndefined();

    const holds = (await ledgerEntries(m.h)).filter((e) => e.task_id === task.task_id && e.kind === "hold");
    expect(holds).toHaveLength(1);
    expect(await countRows(m.h, sql`select count(*)::int as n from tasks where idempotency_key = ${id}`)).toBe(1);
    // Available credits fell by one hold, whether or not the worker has settled it yet.
    expect(before.available - (await balance(m.h)).available).toBe(BigInt(holds[0]!.amount));
  });

  it("refuses the same client_request_id with a changed body: idempotency_conflict, nothing created", async () => {
    const id = randomUUID();
    const first = await speak(id, "The original words.");
    expect(first.isError).toBeFalsy();
    const tasksBefore = await countTasks();
    const error = toolError(await speak(id, "Different words."));
    expect(error).toMatchObject({ code: "idempotency_conflict", type: "conflict_error", retryable: false, jsonrpc_code: -32000 });
    expect(error.request_id).toMatch(/\S/);
    expect(error.message).toMatch(/\S/);
    expect(await countTasks()).toBe(tasksBefore);
  });

  it("waits on svc.tasks.get with progress notifications until succeeded, and links the audio", async () => {
    await m.h.stopWorker();
    const created = await speak(randomUUID(), "Wait for me, please.");
    const taskId = (created.structuredContent as Any).task_id;
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const waiting = client.callTool(
      { name: "svc.tasks.get", arguments: { task_id: taskId, wait_seconds: 20 } },
      { onprogress: (p) => progress.push(p) },
    );
    // The worker starts only once the wait is under way, so the wait sees the task queued, then running.
    await new Promise((resolve) => setTimeout(resolve, 400));
    await m.h.startWorker();
    const result = await waiting;
    expect(result.isError).toBeFalsy();
    const task = result.structuredContent as Any;
    expect(task.status).toBe("succeeded");
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]!.message).toMatch(/^queued/);
    expect(progress.at(-1)).toMatchObject({ progress: 100, total: 100 });
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);

    const artifact = task.output.artifacts[0];
    const links = (result.content as Any[]).filter((c) => c.type === "resource_link");
    expect(links).toHaveLength(task.output.artifacts.length);
    expect(links[0]).toMatchObject({ uri: artifact.url, mimeType: "audio/mpeg", size: artifact.byte_size });
    expect(JSON.stringify(result.content)).not.toMatch(/"blob"|base64/);
    const download = await fetch(links[0].uri);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("audio/mpeg");
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(artifact.byte_size);
    // An MP3 starts with an ID3 tag or an MPEG frame sync.
    expect(bytes.subarray(0, 3).toString("latin1") === "ID3" || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)).toBe(true);
    expect(task.billing.net_charged_credits).toBe(task.billing.charged_credits);
  });

  it("answers invalid input with invalid_request and a param, creating nothing", async () => {
    const tasksBefore = await countTasks();
    const empty = toolError(await speak(randomUUID(), ""));
    expect(empty).toMatchObject({ code: "invalid_request", type: "invalid_request_error", retryable: false, param: "/input", jsonrpc_code: -32602 });
    expect(empty.details.errors[0]).toMatchObject({ loc: ["input"], param: "/input" });
    expect(toolError(await speak(randomUUID(), "fast", { speed: 5 })).param).toBe("/speed");
    expect(toolError(await speak(randomUUID(), "typo", { surprise: true })).param).toBe("/surprise");
    expect(toolError(await speak(undefined, "no id"))).toMatchObject({ code: "invalid_request", param: "/client_request_id" });
    expect(toolError(await speak("k".repeat(129), "long id")).param).toBe("/client_request_id");
    expect(toolError(await speak(randomUUID(), "who", { voice: "nobody" }))).toMatchObject({ code: "voice_not_found", param: "/voice" });
    const badWait = toolError(await client.callTool({ name: "svc.tasks.get", arguments: { task_id: "task_x", wait_seconds: 31 } }));
    expect(badWait).toMatchObject({ code: "invalid_request", param: "/wait_seconds" });
    expect(await countTasks()).toBe(tasksBefore);
  });

  it("answers an unknown task or tool with a structured not-found error", async () => {
    const missing = toolError(await client.callTool({ name: "svc.tasks.get", arguments: { task_id: "task_00000000000000000000000000" } }));
    expect(missing).toMatchObject({ code: "task_not_found", type: "not_found_error", jsonrpc_code: -32602 });
    const tool = toolError(await client.callTool({ name: "svc.speech.sing", arguments: {} }));
    expect(tool).toMatchObject({ code: "not_found", retryable: false });
  });

  it("cancels a queued task with svc.tasks.cancel and refunds its hold", async () => {
    await m.h.stopWorker();
    try {
      const created = await speak(randomUUID(), "Never mind.");
      const taskId = (created.structuredContent as Any).task_id;
      const canceled = await client.callTool({ name: "svc.tasks.cancel", arguments: { task_id: taskId, reason: "changed my mind" } });
      expect(canceled.isError).toBeFalsy();
      const task = canceled.structuredContent as Any;
      expect(task.status).toBe("canceled");
      expect(task.billing.refunded_credits).toBe(task.billing.charged_credits);
      expect(task.cancel_requested_at).not.toBeNull();
    } finally {
      await m.h.startWorker();
    }
  });

  it("lists tasks, voices and models", async () => {
    const tasks = await client.callTool({ name: "svc.tasks.list", arguments: { limit: 2, capability: "text_to_speech" } });
    const page = tasks.structuredContent as Any;
    expect(page.data).toHaveLength(2);
    expect(page.has_more).toBe(true);
    const next = await client.callTool({ name: "svc.tasks.list", arguments: { limit: 2, cursor: page.next_cursor } });
    expect((next.structuredContent as Any).data[0].task_id).not.toBe(page.data[0].task_id);
    expect(toolError(await client.callTool({ name: "svc.tasks.list", arguments: { limit: 0 } })).param).toBe("/limit");

    const voices = (await client.callTool({ name: "svc.voices.list", arguments: {} })).structuredContent as Any;
    expect(voices.data.map((v: Any) => v.voice_id)).toContain("en_female_aria");

    const models = (await client.callTool({ name: "svc.models.list", arguments: { capability: "text_to_speech" } })).structuredContent as Any;
    expect(models.data.map((mo: Any) => mo.id)).toContain("vendorA-speech-2.8-hd");
    for (const model of models.data) expect(model.capabilities).toContain("text_to_speech");
    const unknown = toolError(await client.callTool({ name: "svc.models.list", arguments: { capability: "teleport" } }));
    expect(unknown).toMatchObject({ code: "unsupported_capability", param: "/capability" });
  });
});
