import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balance, countRows, ledgerEntries } from "../support/harness.js";
import { CLIENT_KINDS, connectClient, type Progress, type TestClient } from "./clients.js";
import { startMcpHarness, toolError, type McpHarness } from "./support.js";

// The client matrix: a speech task through the MCP tools over Streamable HTTP with each client hosts embed, each
// after tools/list (so the v1 client validates every result against the advertised output schemas): create,
// replay, conflict, wait with progress, the artifact as a resource and a download, the four kinds of refusal
// read from code and param, the quote and the balance, and the read tools.

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness();
});
afterAll(async () => m?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const countTasks = () => countRows(m.h, sql`select count(*)::int as n from tasks`);

describe.each(CLIENT_KINDS)("%s", (kind) => {
  let client: TestClient;
  const others: TestClient[] = [];
  beforeAll(async () => {
    client = await connectClient(kind, m.url, m.h.apiKey);
    expect((await client.listTools()).tools.length).toBeGreaterThan(20);
  });
  afterAll(async () => {
    await Promise.all([client, ...others].map((c) => c?.close().catch(() => undefined)));
  });

  async function listedClient(credential: string): Promise<TestClient> {
    const other = await connectClient(kind, m.url, credential);
    others.push(other);
    await other.listTools();
    return other;
  }

  const speak = (clientRequestId: string | undefined, input: string, extra: Record<string, unknown> = {}, as = client) =>
    as.callTool("svc.speech.synthesize", {
      ...(clientRequestId !== undefined ? { client_request_id: clientRequestId } : {}),
      voice: "en_female_aria",
      input,
      ...extra,
    });

  it("creates a speech task once for a client_request_id: a replay is the same task and one charge", async () => {
    const id = randomUUID();
    const before = await balance(m.h);
    const quote = (await client.callTool("svc.tasks.quote", { capability: "text_to_speech", arguments: { voice: "en_female_aria", input: `Hello over ${kind}.` } }))
      .structuredContent as Any;
    expect(quote).toMatchObject({ object: "quote", resolved_model: "vendorA-speech-2.8-hd", sufficient_balance: true });
    expect(before.available - (await balance(m.h)).available).toBe(0n);
    const created = await speak(id, `Hello over ${kind}.`);
    expect(created.isError).toBeFalsy();
    const task = created.structuredContent as Any;
    expect(task).toMatchObject({ object: "task", status: "queued", capability: "text_to_speech", resolved_model: quote.resolved_model });
    expect(task.input).toBeUndefined();
    expect(JSON.parse((created.content as Any)[0].text).task_id).toBe(task.task_id);
    const full = (await client.callTool("svc.tasks.get", { task_id: task.task_id, view: "full" })).structuredContent as Any;
    expect(full.social).toMatchObject({ platform: "mcp", operation_name: "svc.speech.synthesize" });
    expect(full.input).toMatchObject({ voice: "en_female_aria" });

    const replay = await speak(id, `Hello over ${kind}.`);
    expect(replay.isError).toBeFalsy();
    expect((replay.structuredContent as Any).task_id).toBe(task.task_id);
    expect(replay._meta?.["svc/idempotent_replayed"]).toBe(true);
    expect(created._meta?.["svc/idempotent_replayed"]).toBeUndefined();

    const holds = (await ledgerEntries(m.h)).filter((e) => e.task_id === task.task_id && e.kind === "hold");
    expect(holds).toHaveLength(1);
    // The quote is the hold the create took, to the micro-credit.
    expect(quote.hold_credits).toBe(task.billing.charged_credits);
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
    expect(error).toMatchObject({ code: "idempotency_conflict", type: "conflict_error", retryable: false, param: "/client_request_id", jsonrpc_code: -32000 });
    expect(error.request_id).toMatch(/\S/);
    expect(error.message).toMatch(/\S/);
    expect(await countTasks()).toBe(tasksBefore);
  });

  it("waits on svc.tasks.get with progress notifications until succeeded, and links the audio", async () => {
    await m.h.stopWorker();
    const created = await speak(randomUUID(), "Wait for me, please.");
    const taskId = (created.structuredContent as Any).task_id;
    const progress: Progress[] = [];
    const waiting = client.callTool("svc.tasks.get", { task_id: taskId, wait_seconds: 20 }, (p) => progress.push(p));
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
    expect(links[0]).toMatchObject({ uri: `svc://artifacts/${artifact.artifact_id}`, mimeType: "audio/mpeg", size: artifact.byte_size });
    expect(JSON.stringify(result.content)).not.toMatch(/"blob"|base64/);
    const resource = await client.readResource(links[0].uri);
    expect(resource.contents[0]).toMatchObject({ uri: links[0].uri, mimeType: "audio/mpeg" });
    const read = Buffer.from(resource.contents[0].blob, "base64");
    const download = await fetch(artifact.url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("audio/mpeg");
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(artifact.byte_size);
    expect(read.equals(bytes)).toBe(true);
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
    const badWait = toolError(await client.callTool("svc.tasks.get", { task_id: "task_x", wait_seconds: 31 }));
    expect(badWait).toMatchObject({ code: "invalid_request", param: "/wait_seconds" });
    expect(await countTasks()).toBe(tasksBefore);
  });

  it("answers an unknown task with a structured not-found error, also in the text content, and an unknown tool with JSON-RPC -32602", async () => {
    const result = await client.callTool("svc.tasks.get", { task_id: "task_00000000000000000000000000" });
    const missing = toolError(result);
    expect(missing).toMatchObject({ code: "task_not_found", type: "not_found_error", jsonrpc_code: -32602 });
    expect(JSON.parse(result.content[0].text).error).toEqual(missing);
    const unknown = await client.callTool("svc.speech.sing", {}).then(
      () => null,
      (error: unknown) => error as { code: number; message: string },
    );
    expect(unknown).toMatchObject({ code: -32602 });
    expect(unknown?.message).toContain("Unknown tool: svc.speech.sing");
  });

  it("answers a missing scope with insufficient_scope and missing_scopes, creating nothing", async () => {
    const limited = await listedClient((await m.h.newTenant("10", ["tasks"])).apiKey);
    const tasksBefore = await countTasks();
    const error = toolError(await speak(randomUUID(), "No speech scope.", {}, limited));
    expect(error).toMatchObject({ code: "insufficient_scope", missing_scopes: ["speech:write"], retryable: false });
    expect(await countTasks()).toBe(tasksBefore);
  });

  it("answers a short balance with insufficient_balance saying the amount needed, and a quote says so first", async () => {
    const poor = await listedClient((await m.h.newTenant("0.000001")).apiKey);
    const words = "A sentence that costs more than one micro-credit.";
    const quote = (await poor.callTool("svc.tasks.quote", { capability: "text_to_speech", arguments: { voice: "en_female_aria", input: words } }))
      .structuredContent as Any;
    expect(quote).toMatchObject({ sufficient_balance: false, available_credits: "0.000001" });
    const error = toolError(await speak(randomUUID(), words, {}, poor));
    expect(error).toMatchObject({ code: "insufficient_balance", retryable: false });
    expect(error.details.required_credits).toBe(quote.hold_credits);
    expect(error.message).toContain(quote.hold_credits);
    const credits = (await poor.callTool("svc.credits.get", {})).structuredContent as Any;
    expect(credits).toMatchObject({ available_credits: "0.000001", held_credits: "0.000000" });
  });

  it("quotes a request the create would refuse with the same refusal, pointing into its arguments", async () => {
    const refused = toolError(
      await client.callTool("svc.tasks.quote", { capability: "text_to_speech", arguments: { voice: "en_female_aria", input: "x", model: "vendorZ" } }),
    );
    expect(refused).toMatchObject({ code: "unsupported_model", param: "/arguments/model" });
    expect(refused.message).toContain("svc.models.list");
    const unknown = toolError(await client.callTool("svc.tasks.quote", { capability: "teleport", arguments: {} }));
    expect(unknown).toMatchObject({ code: "unsupported_capability", param: "/capability" });
  });

  it("cancels a queued task with svc.tasks.cancel and refunds its hold", async () => {
    await m.h.stopWorker();
    try {
      const created = await speak(randomUUID(), "Never mind.");
      const taskId = (created.structuredContent as Any).task_id;
      const canceled = await client.callTool("svc.tasks.cancel", { task_id: taskId, reason: "changed my mind" });
      expect(canceled.isError).toBeFalsy();
      const task = canceled.structuredContent as Any;
      expect(task.status).toBe("canceled");
      expect(task.billing.refunded_credits).toBe(task.billing.charged_credits);
      expect(task.cancel_requested_at).not.toBeNull();
    } finally {
      await m.h.startWorker();
    }
  });

  it("shows a finished image task's image as a JPEG thumbnail once: to the wait that sees it end (unless declined), then only when asked", async () => {
    await m.h.stopWorker();
    const create = async () =>
      (await client.callTool("svc.images.generate", { client_request_id: randomUUID(), prompt: "A red kite over green hills" })).structuredContent as Any;
    const [created, declined] = await Promise.all([create(), create()]);
    const waiting = client.callTool("svc.tasks.get", { task_id: created.task_id, wait_seconds: 30 });
    // A reader that shows the images itself (the task view) declines them, even from the wait that sees the end.
    const declining = client.callTool("svc.tasks.get", { task_id: declined.task_id, wait_seconds: 30, thumbnails: false });
    // The worker starts only once the wait is under way, so the wait sees the task end.
    await new Promise((resolve) => setTimeout(resolve, 400));
    await m.h.startWorker();
    const result = await waiting;
    expect((result.structuredContent as Any).status).toBe("succeeded");
    const thumbnailsOf = (answer: Any) => (answer.content as Any[]).filter((c) => c.type === "image");
    const images = thumbnailsOf(result);
    expect(images).toHaveLength(1);
    expect(images[0].mimeType).toBe("image/jpeg");
    const jpeg = Buffer.from(images[0].data, "base64");
    expect([jpeg[0], jpeg[1]]).toEqual([0xff, 0xd8]);
    expect(jpeg.length).toBeLessThan(100_000);
    const withoutThumbnails = await declining;
    expect((withoutThumbnails.structuredContent as Any).status).toBe("succeeded");
    expect(thumbnailsOf(withoutThumbnails)).toHaveLength(0);
    expect((withoutThumbnails.content as Any[]).filter((c) => c.type === "resource_link")).toHaveLength(1);
    // Later reads link the image without sending it again, unless asked.
    const again = await client.callTool("svc.tasks.get", { task_id: created.task_id, wait_seconds: 5 });
    expect(thumbnailsOf(again)).toHaveLength(0);
    expect((again.content as Any[]).filter((c) => c.type === "resource_link")).toHaveLength(1);
    expect(thumbnailsOf(await client.callTool("svc.tasks.get", { task_id: created.task_id, thumbnails: true }))).toHaveLength(1);
  }, 60_000);

  it("lists tasks, voices and models", async () => {
    const tasks = await client.callTool("svc.tasks.list", { limit: 2, capability: "text_to_speech" });
    const page = tasks.structuredContent as Any;
    expect(page.data).toHaveLength(2);
    expect(page.has_more).toBe(true);
    const next = await client.callTool("svc.tasks.list", { limit: 2, cursor: page.next_cursor });
    expect((next.structuredContent as Any).data[0].task_id).not.toBe(page.data[0].task_id);
    expect(page.data[0].input).toBeUndefined();
    expect(toolError(await client.callTool("svc.tasks.list", { limit: 0 })).param).toBe("/limit");
    expect(toolError(await client.callTool("svc.tasks.list", { cursor: "not-a-cursor" }))).toMatchObject({ code: "invalid_cursor", param: "/cursor" });

    const voices = (await client.callTool("svc.voices.list", {})).structuredContent as Any;
    expect(voices.data.map((v: Any) => v.voice_id)).toContain("en_female_aria");

    const models = (await client.callTool("svc.models.list", { capability: "text_to_speech" })).structuredContent as Any;
    expect(models.data.map((mo: Any) => mo.id)).toContain("vendorA-speech-2.8-hd");
    for (const model of models.data) expect(model.capabilities).toContain("text_to_speech");
    const unknown = toolError(await client.callTool("svc.models.list", { capability: "teleport" }));
    expect(unknown).toMatchObject({ code: "unsupported_capability", param: "/capability" });
  });
});
