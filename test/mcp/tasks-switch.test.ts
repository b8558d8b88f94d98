import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "./support.js";

// MCP_TASKS=false, as README and docs/mcp-tools.md tell an operator to turn the Tasks extension off: the server
// declares no extension, a client that declares it on a tools/call gets the task envelope as every other client
// does, and the task methods are not there.

const TASKS = "io.modelcontextprotocol/tasks";
const PROTOCOL = "2026-07-28";

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness({ worker: false, env: { MCP_TASKS: "false" } });
});
afterAll(async () => m?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

async function post(method: string, params: Record<string, unknown>, name?: string): Promise<Any> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": PROTOCOL,
    "io.modelcontextprotocol/clientInfo": { name: "switch-test", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } },
  };
  const response = await fetch(m.url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${m.h.apiKey}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL,
      "mcp-method": method,
      ...(name ? { "mcp-name": name } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } }),
  });
  const body = await response.text();
  const line = body.split("\n").find((candidate) => candidate.startsWith("data: {"));
  return JSON.parse(line ? line.slice(6) : body);
}

describe("with MCP_TASKS=false", () => {
  it("declares no Tasks extension", async () => {
    const client = await m.connect({ protocol: PROTOCOL });
    expect(client.getServerCapabilities()?.extensions?.[TASKS]).toBeUndefined();
  });

  it("answers a declaring client's create with the task envelope, and has no tasks/get", async () => {
    const created = await post("tools/call", { name: "svc.speech.synthesize", arguments: { client_request_id: randomUUID(), voice: "en_female_aria", input: "No task handle." } }, "svc.speech.synthesize");
    expect(created.result.resultType).toBe("complete");
    expect(created.result.structuredContent).toMatchObject({ object: "task", status: "queued" });
    const got = await post("tasks/get", { taskId: created.result.structuredContent.task_id }, created.result.structuredContent.task_id);
    expect(got.error?.code).toBe(-32601);
  });
});
