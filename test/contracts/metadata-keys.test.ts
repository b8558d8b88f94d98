import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerOf, postRawMcp, startMcpHarness, type McpHarness } from "../mcp/support.js";

// Issue 26: `metadata: {"__proto__": "x", "ok": "y"}` answered 202 with `{"ok": "y"}`, the key silently dropped.
// Every key is a label and is echoed as sent, on REST and MCP alike. Bodies are written as text: a JavaScript object
// literal would itself lose the key before it is sent.

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness({ worker: false });
});
afterAll(async () => m?.close());

const LABELS = `{"__proto__":"x","ok":"y"}`;
const speech = (metadata: string) => `{"voice":"en_female_aria","input":"Labels.","metadata":${metadata}}`;

function expectLabels(metadata: Record<string, string>) {
  // Stored as jsonb, which orders an object's keys its own way: the keys are compared as a set.
  expect(Object.keys(metadata).sort()).toEqual(["__proto__", "ok"]);
  expect(Object.getOwnPropertyDescriptor(metadata, "__proto__")?.value).toBe("x");
  expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
}

async function mcpCall(name: string, args: string) {
  const response = await postRawMcp(m, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`);
  const text = await response.text();
  return answerOf(text);
}

describe("a metadata key named __proto__", () => {
  it("is kept and echoed over REST: the 202, GET, the list and the idempotency fingerprint", async () => {
    const created = await m.h.request("POST", "/v1/audio/speech", { idempotencyKey: "proto-rest", rawBody: speech(LABELS) });
    expect(created.status).toBe(202);
    expectLabels(created.body.metadata);
    const taskId = created.body.task_id as string;
    expectLabels((await m.h.request("GET", `/v1/tasks/${taskId}`)).body.metadata);
    const listed = (await m.h.request("GET", "/v1/tasks")).body.data as { task_id: string; metadata: Record<string, string> }[];
    expectLabels(listed.find((t) => t.task_id === taskId)!.metadata);

    const replay = await m.h.request("POST", "/v1/audio/speech", { idempotencyKey: "proto-rest", rawBody: speech(LABELS) });
    expect(replay.status).toBe(202);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const changed = await m.h.request("POST", "/v1/audio/speech", { idempotencyKey: "proto-rest", rawBody: speech(`{"ok":"y"}`) });
    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe("idempotency_conflict");
  });

  it("is held to the rules of every label, and reaches no prototype", async () => {
    const object = await m.h.request("POST", "/v1/audio/speech", { idempotencyKey: "proto-object", rawBody: speech(`{"__proto__":{"polluted":"yes"}}`) });
    expect(object.status).toBe(422);
    expect(object.body.error).toMatchObject({ code: "invalid_request", param: "/metadata/__proto__" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const long = await m.h.request("POST", "/v1/audio/speech", { idempotencyKey: "proto-long", rawBody: speech(`{"__proto__":"${"v".repeat(513)}"}`) });
    expect(long.status).toBe(422);
    expect(long.body.error.param).toBe("/metadata/__proto__");
    const sixteen = Array.from({ length: 16 }, (_, i) => `"k${i}":"v"`).join(",");
    const seventeen = await m.h.request("POST", "/v1/audio/speech", { idempotencyKey: "proto-many", rawBody: speech(`{${sixteen},"__proto__":"x"}`) });
    expect(seventeen.status).toBe(422);
    expect(seventeen.body.error.param).toBe("/metadata");
  });

  it("is kept and echoed over MCP as over REST", async () => {
    const message = await mcpCall("svc.speech.synthesize", `{"client_request_id":"proto-mcp","voice":"en_female_aria","input":"Labels.","metadata":${LABELS}}`);
    expect(message?.result?.isError, JSON.stringify(message).slice(0, 500)).toBeFalsy();
    // The tools' compact task view leaves metadata out; the task holds it as REST shows.
    const taskId = message.result.structuredContent.task_id as string;
    expectLabels((await m.h.request("GET", `/v1/tasks/${taskId}`)).body.metadata);

    const refused = await mcpCall("svc.speech.synthesize", `{"client_request_id":"proto-mcp-2","voice":"en_female_aria","input":"Labels.","metadata":{"__proto__":1}}`);
    expect(refused.result.isError).toBe(true);
    expect(refused.result.structuredContent.error).toMatchObject({ code: "invalid_request", param: "/metadata/__proto__" });
  });
});
