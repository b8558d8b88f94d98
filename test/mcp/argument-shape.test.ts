import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSON_MAX_DEPTH } from "../../core/index.js";
import { balance } from "../support/harness.js";
import { answerOf, postRawMcp, startMcpHarness, type McpHarness } from "../mcp/support.js";

// Issue 13, item 1 on the agent surface: tool arguments nested thousands deep overflowed the recursive text check
// (internal_error, retryable). The bound of core/contracts/json-shape.ts holds there too.
let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness({ worker: false });
});
afterAll(async () => m?.close());

describe("the shape of MCP tool arguments", () => {
  it("in MCP tool arguments is a tool error at the argument, not an internal error", async () => {
    const before = await balance(m.h);
    // Written as text: the SDK client's own JSON.stringify gives up on nesting this deep before sending.
    const deep = `${"[".repeat(6_000)}"x"${"]".repeat(6_000)}`;
    const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"svc.speech.synthesize","arguments":{"client_request_id":"deep-mcp","voice":"en_female_aria","input":"Hi.","metadata":{"k":${deep}}}}}`;
    const response = await postRawMcp(m, call);
    const text = await response.text();
    const message = answerOf(text);
    expect(message?.result?.isError, text.slice(0, 500)).toBe(true);
    expect(message.result.structuredContent.error).toMatchObject({
      code: "invalid_request",
      retryable: false,
      param: `/metadata/k${"/0".repeat(JSON_MAX_DEPTH - 2)}`,
    });
    expect(await balance(m.h)).toEqual(before);
  });
});
