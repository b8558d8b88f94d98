import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, type RawClientDispatch } from "@modelcontextprotocol/ext-tasks/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "./support.js";

// The MCP Tasks extension (2026-07-28) as a requester sees it: the v2 SDK client with @modelcontextprotocol/ext-tasks
// drives a create tool's task through tasks/get to its final CallToolResult, cancels one, and is refused ids that
// are not its own; a client that does not declare the extension gets today's answer.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const TASKS = "io.modelcontextprotocol/tasks";
const PROTOCOL = "2026-07-28";
const CLIENT_INFO = { name: "tasks-test", version: "1.0.0" };
const NAME_FIELD: Record<string, string> = { "tools/call": "name", "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId" };

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness();
});
afterAll(async () => m?.close());

// One JSON-RPC request POSTed as a 2026-07-28 client sends it (the routing headers beside the body), its answer
// read from JSON or from the SSE stream: what ext-tasks asks a host to supply for the task wire the SDK client lacks.
async function post(message: Any, credential = m.h.apiKey): Promise<Any> {
  const id = message.id ?? randomUUID();
  const field = NAME_FIELD[message.method];
  const response = await fetch(m.url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${credential}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL,
      "mcp-method": message.method,
      ...(field && message.params?.[field] !== undefined ? { "mcp-name": String(message.params[field]) } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", ...message, id }),
  });
  const body = await response.text();
  const messages = response.headers.get("content-type")?.includes("text/event-stream")
    ? body
        .split("\n")
        .filter((line) => line.startsWith("data:") && line.length > 5)
        .map((line) => JSON.parse(line.slice(5)))
    : [JSON.parse(body)];
  const answer = messages.find((candidate: Any) => candidate.id === id);
  if (!answer) throw new Error(`no answer to ${message.method}: HTTP ${response.status} ${body}`);
  return answer;
}

// A request's own capabilities, as 2026-07-28 carries them.
function framed(method: string, params: Any, capabilities: Any = { extensions: { [TASKS]: {} } }): Any {
  return {
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
      },
    },
  };
}

const rawDispatch: RawClientDispatch = async (request) => {
  const answer = await post(request);
  return answer.error ? { kind: "error", error: answer.error } : { kind: "result", result: answer.result };
};

async function taskSession(client: Client) {
  return createTaskSessionFromClient(client, {
    endpointId: "tasks-test",
    rawDispatch,
    v2RequestFraming: { protocolVersion: PROTOCOL, clientInfo: CLIENT_INFO, clientCapabilities: {} },
  });
}

const speech = () => ({ client_request_id: randomUUID(), voice: "en_female_aria", input: "Handled in the background." });

describe("the Tasks extension", () => {
  it("is declared in server/discover", async () => {
    const client = await m.connect({ protocol: PROTOCOL });
    expect(client.getServerCapabilities()?.extensions?.[TASKS]).toEqual({});
  });

  it("answers a create with a task, which tasks/get follows to the final CallToolResult", async () => {
    const client = await m.connect({ protocol: PROTOCOL });
    const session = await taskSession(client);
    try {
      const execution = await session.callTool("svc.speech.synthesize", speech());
      expect(execution.kind).toBe("task");
      const taskId = (execution as Any).handle.taskId as string;
      expect(taskId).toMatch(/^task_/);
      const { outcome, lastTask } = await execution.settle();
      expect(outcome.status).toBe("completed");
      const result = (outcome as Any).result;
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toMatchObject({ task_id: taskId, status: "succeeded" });
      expect(result.content.some((c: Any) => c.type === "resource_link" && c.mimeType?.startsWith("audio/"))).toBe(true);
      expect(lastTask?.retentionMs).toBe(m.h.core.config.artifactRetentionDays * 24 * 60 * 60 * 1000);
    } finally {
      await session.close();
    }
  }, 120_000);

  it("answers the create itself with the flat CreateTaskResult and maps a queued task to working", async () => {
    await m.h.stopWorker();
    try {
      const created = await post(framed("tools/call", { name: "svc_speech_synthesize", arguments: speech() }));
      expect(created.result).toMatchObject({ resultType: "task", status: "working", statusMessage: "Waiting to start." });
      expect(created.result.content).toBeUndefined();
      expect(Number.isInteger(created.result.pollIntervalMs)).toBe(true);
      const got = await post(framed("tasks/get", { taskId: created.result.taskId }));
      expect(got.result).toMatchObject({ resultType: "complete", taskId: created.result.taskId, status: "working" });
      expect(got.result.result).toBeUndefined();
      // The same client_request_id is the same task: a create repeated answers the task it made.
      const again = await post(framed("tools/call", { name: "svc_speech_synthesize", arguments: { ...speech(), client_request_id: "same-request" } }));
      const replayed = await post(framed("tools/call", { name: "svc_speech_synthesize", arguments: { ...speech(), client_request_id: "same-request" } }));
      expect(replayed.result.taskId).toBe(again.result.taskId);
    } finally {
      await m.h.startWorker();
    }
  });

  it("cancels a queued task: the ack is empty, tasks/get then shows it cancelled and refunded", async () => {
    await m.h.stopWorker();
    try {
      const created = await post(framed("tools/call", { name: "svc_speech_synthesize", arguments: speech() }));
      const taskId = created.result.taskId;
      const ack = await post(framed("tasks/cancel", { taskId }));
      expect(ack.result).toEqual(expect.objectContaining({ resultType: "complete" }));
      expect(Object.keys(ack.result).filter((key) => key !== "_meta")).toEqual(["resultType"]);
      const got = await post(framed("tasks/get", { taskId }));
      expect(got.result).toMatchObject({ status: "cancelled", statusMessage: "Canceled." });
      const rest = await m.h.request("GET", `/v1/tasks/${taskId}`);
      expect(rest.body).toMatchObject({ status: "canceled" });
      expect((rest.body as Any).billing.net_charged_credits).toBe("0.000000");
      // tasks/update: nothing is ever waited on, so any answer is acknowledged and ignored.
      const update = await post(framed("tasks/update", { taskId, inputResponses: { anything: { action: "accept" } } }));
      expect(update.result).toMatchObject({ resultType: "complete" });
    } finally {
      await m.h.startWorker();
    }
  });

  it("answers -32602 for an unknown task and for another tenant's, on get, cancel and update", async () => {
    await m.h.stopWorker();
    try {
      const created = await post(framed("tools/call", { name: "svc_speech_synthesize", arguments: speech() }));
      const foreignKey = (await m.h.newTenant("10")).apiKey;
      for (const method of ["tasks/get", "tasks/cancel", "tasks/update"]) {
        const params = method === "tasks/update" ? { inputResponses: {} } : {};
        const unknown = await post(framed(method, { taskId: "task_00000000000000000000000000", ...params }));
        expect(unknown.error?.code).toBe(-32602);
        const foreign = await post(framed(method, { taskId: created.result.taskId, ...params }), foreignKey);
        expect(foreign.error?.code).toBe(-32602);
      }
      // The other tenant's cancel did nothing.
      const got = await post(framed("tasks/get", { taskId: created.result.taskId }));
      expect(got.result.status).toBe("working");
    } finally {
      await m.h.startWorker();
    }
  });

  it("answers a client that does not declare it as before, and refuses it the task methods with -32021", async () => {
    await m.h.stopWorker();
    try {
      const created = await post(framed("tools/call", { name: "svc_speech_synthesize", arguments: speech() }, {}));
      expect(created.result.resultType).toBe("complete");
      expect(created.result.structuredContent).toMatchObject({ status: "queued" });
      const got = await post(framed("tasks/get", { taskId: created.result.structuredContent.task_id }, {}));
      expect(got.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
      // A 2025-11-25 client has no per-request capabilities: today's answer.
      const legacy = await m.connect();
      const answer = await legacy.callTool({ name: "svc.speech.synthesize", arguments: speech() });
      expect(answer.structuredContent).toMatchObject({ status: "queued" });
    } finally {
      await m.h.startWorker();
    }
  });
  it("acknowledges a subscriptions/listen for task notifications without the taskIds: the host is told to poll", async () => {
    const created = await post(framed("tools/call", { name: "svc_speech_synthesize", arguments: speech() }));
    const taskId = created.result.taskId as string;
    const listen = framed("subscriptions/listen", { notifications: { taskIds: [taskId] } });
    const response = await fetch(m.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${m.h.apiKey}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": PROTOCOL,
        "mcp-method": "subscriptions/listen",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: "listen-1", ...listen }),
    });
    expect(response.status).toBe(200);
    // The stream stays open for change notifications; its first message is the acknowledged filter.
    const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!/^data: .*acknowledged/m.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    await reader.cancel();
    const ack = JSON.parse(/^data: (.*acknowledged.*)$/m.exec(text)?.[1] ?? "null");
    expect(ack).toMatchObject({ method: "notifications/subscriptions/acknowledged" });
    expect(ack.params.notifications.taskIds).toBeUndefined();
  });
});
