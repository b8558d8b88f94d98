import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedSources } from "../../client/scripts/generate-types.js";
import { createClient, ServiceError, WaitTimeoutError, type ErrorCode, type MediaTaskClient, type TaskChange } from "../../client/src/index.js";
import { startHarness, type Harness } from "../support/harness.js";
import { startProxy, type Plan, type Proxy } from "./proxy.js";

// The client package against the running service (REST server, worker, emulator, Postgres), directly or through
// a proxy that fails requests the way networks and gateways do.
let h: Harness;
let client: MediaTaskClient;
const proxies: Proxy[] = [];

beforeAll(async () => {
  h = await startHarness({ worker: true, credits: "100" });
  client = createClient({ baseUrl: h.baseUrl, apiKey: h.apiKey });
});
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await h?.close();
});

async function proxied(plan: (request: { method: string; url: string }, index: number) => Plan) {
  const proxy = await startProxy(h.baseUrl, plan);
  proxies.push(proxy);
  return { proxy, client: createClient({ baseUrl: proxy.url, apiKey: h.apiKey, retryBaseMs: 50 }) };
}

const SPEECH = { voice: "en_female_aria", input: "Hello from the typed client.", format: "wav" as const };
const ascii = (bytes: Uint8Array, from: number, to: number) => new TextDecoder().decode(bytes.slice(from, to));

describe("create, wait, download", () => {
  it("answers the ended task and its audio, whose bytes are a WAV file of the size the artifact states", async () => {
    const task = await client.run("text_to_speech", SPEECH, { timeoutMs: 60_000 });
    expect(task).toMatchObject({ object: "task", status: "succeeded", capability: "text_to_speech" });
    const artifact = task.output?.artifacts[0];
    expect(artifact?.content_type).toMatch(/^audio\//);
    const bytes = await client.download(artifact!);
    expect(ascii(bytes, 0, 4)).toBe("RIFF");
    expect(ascii(bytes, 8, 12)).toBe("WAVE");
    expect(bytes.byteLength).toBe(artifact!.byte_size);
  });

  it("creates by path too, and the stream of a download carries the artifact's type and length", async () => {
    const created = await client.create("/v1/audio/speech", { ...SPEECH, format: "mp3" });
    const ended = await client.wait(created.task_id, { timeoutMs: 60_000 });
    expect(ended.status).toBe("succeeded");
    const artifact = ended.output!.artifacts[0]!;
    const download = await client.downloadStream(artifact.url);
    expect(download.contentType).toBe(artifact.content_type);
    expect(download.byteLength).toBe(artifact.byte_size);
    const bytes = new Uint8Array(await new Response(download.body).arrayBuffer());
    // An MP3 starts with an ID3 tag or a frame sync (eleven set bits).
    expect(ascii(bytes, 0, 3) === "ID3" || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)).toBe(true);
  });
});

describe("retries", () => {
  it("send the one Idempotency-Key of a create on every attempt, so a retry after a lost answer gets the same task", async () => {
    const rateLimited = { error: { code: "rate_limited", type: "rate_limit_error", message: "Slow down.", retryable: true } };
    const { proxy, client: flaky } = await proxied((request, index) => {
      if (request.method !== "POST") return { kind: "pass" };
      if (index === 0) return { kind: "answer", status: 429, headers: { "retry-after": "1" }, body: rateLimited };
      return index === 1 ? { kind: "lose-answer" } : { kind: "pass" };
    });
    const task = await flaky.create("text_to_speech", SPEECH);

    const attempts = proxy.requests.filter((request) => request.method === "POST");
    expect(attempts).toHaveLength(3);
    const keys = attempts.map((attempt) => attempt.headers["idempotency-key"]);
    expect(new Set(keys).size).toBe(1);
    // The second attempt was admitted and its answer lost; the third is its replay.
    const found = await client.findByIdempotencyKey(keys[0] as string);
    expect(found?.task_id).toBe(task.task_id);
    const mine = [];
    for await (const listed of client.listTasks({ capability: "text_to_speech" })) if (listed.task_id === task.task_id) mine.push(listed);
    expect(mine).toHaveLength(1);
  });

  it("do not repeat a refusal that is not retryable; the error is typed with code, param, status and request id", async () => {
    const { proxy, client: counted } = await proxied(() => ({ kind: "pass" }));
    const refusal = await counted.create("text_to_speech", { ...SPEECH, speed: 5 }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ServiceError);
    const error = refusal as ServiceError;
    expect(error).toMatchObject({ code: "invalid_request", param: "/speed", status: 422, retryable: false });
    expect(error.requestId).toMatch(/.+/);
    expect(error.idempotencyKey).toBe(proxy.requests[0]?.headers["idempotency-key"]);
    expect(proxy.requests).toHaveLength(1);

    const unknownVoice = await client.create("text_to_speech", { ...SPEECH, voice: "no_such_voice" }).then(
      () => expect.fail("a voice that does not exist was accepted"),
      (e: ServiceError) => e,
    );
    expect(unknownVoice).toMatchObject({ code: "voice_not_found", status: 404, retryable: false });
    // The code is the catalogue's union: a switch over it is checked, and a made-up code does not compile.
    const advice = (code: ErrorCode) => (code === "voice_not_found" ? "pick a voice from GET /v1/voices" : code);
    expect(advice(unknownVoice.code)).toBe("pick a voice from GET /v1/voices");
    // @ts-expect-error not a code of the catalogue
    const _notACode: ErrorCode = "no_such_code";
    // Bodies are typed per capability, from the OpenAPI document.
    // @ts-expect-error speech takes voice and input, not prompt
    const _notSpeech = () => client.create("text_to_speech", { prompt: "a song" });
  });
});

describe("wait", () => {
  it("follows the event stream when the server wait runs out, and resumes it with Last-Event-ID after a cut", async () => {
    await h.stopWorker();
    const { proxy, client: cutting } = await proxied((request) => {
      const first = request.url.endsWith("/events") && !proxy.requests.some((seen) => seen.url.endsWith("/events"));
      return first ? { kind: "cut-after-first-event" } : { kind: "pass" };
    });
    const created = await cutting.create("text_to_speech", SPEECH);
    const changes: TaskChange[] = [];
    const ended = await cutting.wait(created, {
      serverWaitSeconds: 1,
      timeoutMs: 60_000,
      onChange(change) {
        changes.push(change);
        if (changes.length === 1) void h.startWorker();
      },
    });

    expect(ended).toMatchObject({ task_id: created.task_id, status: "succeeded" });
    const reads = proxy.requests.filter((request) => request.method === "GET");
    expect(reads[0]).toMatchObject({ url: `/v1/tasks/${created.task_id}`, headers: { prefer: "wait=1" } });
    const streams = reads.filter((request) => request.url.endsWith("/events"));
    expect(streams.length).toBeGreaterThanOrEqual(2);
    expect(streams[0]!.headers["last-event-id"]).toBeUndefined();
    expect(streams[1]!.headers["last-event-id"]).toBe(changes[0]!.id);
    // Every change once, in order: the snapshot (queued), then running, then the end.
    expect(changes[0]).toMatchObject({ event: "status", status: "queued" });
    expect(changes.map((change) => change.status)).toContain("running");
    expect(changes.at(-1)).toMatchObject({ event: "status", status: "succeeded" });
    const ids = changes.map((change) => BigInt(change.id));
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => (a < b ? -1 : 1)));
  });

  it("throws WaitTimeoutError with the task as last seen when time runs out; the task goes on and can be waited for again", async () => {
    await h.stopWorker();
    const created = await client.create("text_to_speech", SPEECH);
    const outcome = await client.wait(created.task_id, { serverWaitSeconds: 1, timeoutMs: 1500 }).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(WaitTimeoutError);
    expect((outcome as WaitTimeoutError).task).toMatchObject({ task_id: created.task_id, status: "queued" });
    await h.startWorker();
    expect(await client.wait(created.task_id, { timeoutMs: 60_000 })).toMatchObject({ task_id: created.task_id, status: "succeeded" });
  });
});

describe("the rest of the API on the same request function", () => {
  it("quotes without holding, reads credits, lists tasks page by page, finds by key, cancels an ended task", async () => {
    const before = await client.credits();
    const quote = await client.quote("text_to_speech", SPEECH);
    expect(quote).toMatchObject({ object: "quote", capability: "text_to_speech" });
    expect(await client.credits()).toEqual(before);

    const listed = [];
    for await (const task of client.listTasks({ limit: 1 })) listed.push(task.task_id);
    const page = await client.listTasksPage({ limit: 100 });
    expect(listed).toEqual(page.data.map((task) => task.task_id));
    expect(listed.length).toBeGreaterThan(1);

    expect(await client.findByIdempotencyKey("never-sent")).toBeNull();
    const ended = await client.getTask(listed[0]!);
    expect(await client.cancel(ended.task_id)).toMatchObject({ task_id: ended.task_id, status: ended.status });
  });
});

describe("the generated types", () => {
  it("are what the running service's /v1/openapi.json generates (npm run generate --prefix client)", async () => {
    const document = await (await fetch(`${h.baseUrl}/v1/openapi.json`)).json();
    for (const [name, text] of Object.entries(await generatedSources(document))) {
      const committed = await readFile(path.resolve(import.meta.dirname, "../../client/src/generated", name), "utf8");
      expect(committed, `client/src/generated/${name} is stale: run npm run generate --prefix client`).toBe(text);
    }
  });
});
