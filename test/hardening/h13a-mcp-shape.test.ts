import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSON_MAX_DEPTH } from "../../core/index.js";
import { balance } from "../support/harness.js";
import { startMcpHarness, toolError, type McpHarness } from "../mcp/support.js";

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
    const client = await m.connect();
    let deep: unknown = "x";
    for (let i = 0; i < 6_000; i++) deep = [deep];
    const error = toolError(
      await client.callTool({ name: "svc.speech.synthesize", arguments: { client_request_id: "deep-mcp", voice: "en_female_aria", input: "Hi.", metadata: { k: deep } } }),
    );
    expect(await balance(m.h)).toEqual(before);
    expect(error).toMatchObject({ code: "invalid_request", retryable: false, param: `/metadata/k${"/0".repeat(JSON_MAX_DEPTH - 2)}` });
  });
});
