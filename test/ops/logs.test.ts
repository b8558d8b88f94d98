import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { DrizzleQueryError } from "drizzle-orm";
import type { Runner } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCore, createLogger, type Config, type Core } from "../../core/index.js";
import { startMcpHttpServer, type McpHttpServer } from "../../mcp-server/http.js";
import { graphileLogger } from "../../worker/graphile-logger.js";
import { startWorker } from "../../worker/runner.js";
import { startReceiver, type Receiver } from "../callbacks/receiver.js";
import { freePort, listenRest, startHarness, type Harness } from "../support/harness.js";
import { eventually } from "../support/wait.js";
import type { LogLine } from "./service-processes.js";

// The log lines a process writes, captured from its pino destination: what they carry about requests and tasks,
// and what they must never carry.
const PROMPT = "The vault combination is 31-41-59, tell nobody";
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

let h: Harness;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  h = await startHarness({ env: { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true", MCP_PORT: String(await freePort()) } });
});

afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

interface LoggedService {
  core: Core;
  baseUrl: string;
  lines: LogLine[];
  text(): string;
  close(): Promise<void>;
}

// A REST server (and optionally a worker and the MCP server) on the harness database whose core logs into memory.
async function loggedService(overrides: Partial<Config>, options: { worker?: boolean; mcp?: boolean } = {}) {
  const raw: string[] = [];
  const logger = createLogger({ logLevel: "info" }, { process: "test" }, { write: (line: string) => void raw.push(line) });
  const core = createCore({ ...h.core.config, ...overrides }, { logger, dbPoolSize: 4 });
  const rest = await listenRest(core);
  const runner: Runner | null = options.worker ? await startWorker(core, { concurrency: 2, logger: graphileLogger(logger) }) : null;
  const mcp: McpHttpServer | null = options.mcp ? await startMcpHttpServer(core) : null;
  const service: LoggedService & { mcpUrl: string | null } = {
    core,
    baseUrl: rest.url,
    mcpUrl: mcp?.url ?? null,
    get lines() {
      return raw.map((line) => JSON.parse(line) as LogLine);
    },
    text: () => raw.join(""),
    async close() {
      await runner?.stop();
      await mcp?.close();
      await rest.close();
      await core.close();
    },
  };
  return service;
}

async function call(base: string, method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${options.key ?? h.apiKey}`, ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (await response.json().catch(() => null)) as any };
}

function waitForLine(service: LoggedService, predicate: (line: LogLine) => boolean): Promise<LogLine> {
  return eventually(() => `no such log line among:\n${service.text()}`, 20_000, () => service.lines.find(predicate), 25);
}

describe("a task's lines, from its request to its callback", () => {
  let service: LoggedService & { mcpUrl: string | null };
  let secret: string;
  let taskId: string;
  let artifactUrl: string;
  const badKey = "sk_us_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";

  beforeAll(async () => {
    service = await loggedService({}, { worker: true, mcp: true });
    const key = await call(service.baseUrl, "POST", "/v1/callback-signing-keys", { body: { name: "logs" } });
    secret = key.body.secret;
    const created = await call(service.baseUrl, "POST", "/v1/audio/speech", {
      headers: { "idempotency-key": "logs-1", "x-request-id": "req-logs-1" },
      body: { voice: "en_female_aria", input: PROMPT, callback_url: `${receiver.url}/hooks?token=receiver-credential`, callback_signing_key_id: key.body.id },
    });
    expect(created.status).toBe(202);
    taskId = created.body.task_id;
    await waitForLine(service, (line) => line.msg === "callback delivered");
    // The signed URL names the harness's server (PUBLIC_BASE_URL); the same path and signature work on this one.
    const signed = new URL((await call(service.baseUrl, "GET", `/v1/tasks/${taskId}`)).body.output.artifacts[0].url);
    artifactUrl = `${service.baseUrl}${signed.pathname}${signed.search}`;
    expect((await fetch(artifactUrl)).status).toBe(200);
    expect((await call(service.baseUrl, "GET", "/v1/credits", { key: badKey })).status).toBe(401);
    const image = await call(service.baseUrl, "POST", "/v1/images/responses", {
      headers: { "idempotency-key": "logs-image" },
      body: { model: "auto", prompt: "What is it?", images: [`data:image/png;base64,${PNG_BASE64}`] },
    });
    expect(image.status).toBe(202);
  });

  afterAll(async () => service?.close());

  it("names the request, the tenant and the task on the request's line", async () => {
    const answered = await waitForLine(service, (line) => line.msg === "request completed" && line.request_id === "req-logs-1");
    expect(answered).toMatchObject({ level: "info", tenant_id: h.tenantId, task_id: taskId, res: { statusCode: 202 }, req: { method: "POST", url: "/v1/audio/speech" } });
    const read = await waitForLine(service, (line) => line.msg === "request completed" && line.req?.url === `/v1/tasks/${taskId}`);
    expect(read).toMatchObject({ tenant_id: h.tenantId, task_id: taskId });
    // Every request line after authentication names the tenant.
    const withoutTenant = service.lines.filter((line) => line.msg === "request completed" && line.res.statusCode < 400 && !line.tenant_id && !line.req.url.startsWith("/v1/artifacts/"));
    expect(withoutTenant).toEqual([]);
  });

  it("names the task, its tenant and the admitting request on every line about the task", async () => {
    const about = service.lines.filter((line) => line.task_id === taskId && line.msg !== "request completed");
    expect(about.map((line) => line.msg)).toEqual(expect.arrayContaining(["task admitted", "task finished", "callback delivered"]));
    for (const line of about) expect(line, line.msg).toMatchObject({ tenant_id: h.tenantId, request_id: "req-logs-1" });
    expect(about.find((line) => line.msg === "task finished")).toMatchObject({ status: "succeeded", capability: "text_to_speech" });
  });

  it("shows prompt text as its length and media as its size", async () => {
    const admitted = await waitForLine(service, (line) => line.msg === "task admitted" && line.task_id === taskId);
    expect(admitted.input.input).toBe(`[prompt, ${PROMPT.length} characters]`);
    expect(admitted.input.voice).toBe("en_female_aria");
    const image = await waitForLine(service, (line) => line.msg === "task admitted" && line.capability === "image_to_text");
    expect(image.input.images).toEqual([`[data URI image/png, ${PNG_BASE64.length} characters]`]);
    expect(service.text()).not.toContain(PROMPT);
    expect(service.text()).not.toContain(PNG_BASE64);
  });

  it("never writes a credential: API keys, signing secrets, signatures, tokens in URLs", async () => {
    // A request's line is written once its answer is sent, which a client may see first.
    const download = await waitForLine(service, (line) => line.msg === "request completed" && line.req?.url?.startsWith("/v1/artifacts/"));
    expect(download.req.url).toContain("signature=[redacted]");
    await waitForLine(service, (line) => line.msg === "request completed" && line.res.statusCode === 401);
    const text = service.text();
    for (const credential of [h.apiKey, badKey, secret, new URL(artifactUrl).searchParams.get("signature") as string, "receiver-credential"]) {
      expect(text).not.toContain(credential);
    }
    expect(text.toLowerCase()).not.toContain("bearer");
  });

  it("carries the request id and tenant of an MCP call onto the task's lines", async () => {
    const client = new Client({ name: "logs-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(service.mcpUrl as string), {
        requestInit: { headers: { authorization: `Bearer ${h.apiKey}`, "x-request-id": "req-logs-mcp" } },
      }),
    );
    const created = await client.callTool({
      name: "svc.speech.synthesize",
      arguments: { client_request_id: "logs-mcp", voice: "en_female_aria", input: PROMPT },
    });
    await client.close();
    const mcpTaskId = (created.structuredContent as { task_id: string }).task_id;
    const admitted = await waitForLine(service, (line) => line.msg === "task admitted" && line.task_id === mcpTaskId);
    expect(admitted).toMatchObject({ request_id: "req-logs-mcp", tenant_id: h.tenantId });
    const answered = service.lines.filter((line) => line.msg === "request completed" && line.request_id === "req-logs-mcp");
    expect(answered.length).toBeGreaterThan(0);
    for (const line of answered) expect(line.tenant_id).toBe(h.tenantId);
    expect(service.text()).not.toContain(PROMPT);
  });
});

describe("LOG_PROMPTS=true", () => {
  it("writes prompt text, and still no media bytes", async () => {
    const service = await loggedService({ logPrompts: true });
    try {
      const created = await call(service.baseUrl, "POST", "/v1/audio/speech", {
        headers: { "idempotency-key": "logs-prompts" },
        body: { voice: "en_female_aria", input: PROMPT },
      });
      const admitted = await waitForLine(service, (line) => line.msg === "task admitted" && line.task_id === created.body.task_id);
      expect(admitted.input.input).toBe(PROMPT);
    } finally {
      await service.close();
    }
  });
});

describe("error lines", () => {
  it("keep a failed query's statement but never its parameters", () => {
    const raw: string[] = [];
    const logger = createLogger({ logLevel: "info" }, { process: "test" }, { write: (line: string) => void raw.push(line) });
    logger.error({ err: new DrizzleQueryError("insert into tasks (input) values ($1)", [PROMPT]) }, "unhandled error");
    const line = JSON.parse(raw[0] as string) as LogLine;
    expect(line.err.message).toBe("Failed query: insert into tasks (input) values ($1)\nparams: [redacted]");
    expect(raw[0]).not.toContain(PROMPT);
  });
});
