import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balance } from "../support/harness.js";
import { startMcpHarness, toolError, type McpHarness } from "../mcp/support.js";

// Text Postgres cannot store (NUL, half a surrogate pair) and URLs that do not decode to UTF-8, found by the
// request fuzzer as 500s: each is a 422 invalid_request in SPEC.md's envelope, on REST and MCP alike, and
// nothing is created or held.
let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness({ worker: false });
});
afterAll(async () => m?.close());

describe("text that cannot be stored", () => {
  it("in a JSON body is refused at its field", async () => {
    const before = await balance(m.h);
    for (const input of ["a\u0000b", "lone \uD800 surrogate"]) {
      const response = await m.h.request("POST", "/v1/audio/speech", { idempotencyKey: `nul-${input.length}`, body: { voice: "en_female_aria", input } });
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: "invalid_request", param: "/input" });
    }
    const key = await m.h.request("POST", "/v1/audio/speech", { idempotencyKey: "nul-key", body: { voice: "en_female_aria", input: "Hi.", metadata: { "a\u0000": "x" } } });
    expect(key.body.error).toMatchObject({ code: "invalid_request", param: "/metadata/a\u0000" });
    expect(await balance(m.h)).toEqual(before);
  });

  it("in a URL's path or query, or a path that is not UTF-8, is refused before any route", async () => {
    const path = await m.h.request("GET", "/v1/tasks/task%00");
    const query = await m.h.request("GET", "/v1/tasks?cursor=%00");
    const undecodable = await m.h.request("GET", "/v1/voices/%FF");
    expect([path.status, query.status, undecodable.status]).toEqual([422, 422, 422]);
    expect(path.body.error.details.errors).toEqual([{ loc: ["path"], reason: "contains a NUL character or an unpaired surrogate" }]);
    expect(query.body.error.details.errors[0].loc).toEqual(["query", "cursor"]);
    expect(undecodable.body.error).toMatchObject({ code: "invalid_request", type: "invalid_request_error", retryable: false });
    expect(undecodable.body.error.details.errors[0].reason).toBe("is not percent-encoded UTF-8");
  });

  it("in MCP tool arguments is a tool error at its argument", async () => {
    const client = await m.connect();
    const error = toolError(
      await client.callTool({
        name: "svc.speech.synthesize",
        arguments: { client_request_id: "nul-mcp", voice: "en_female_aria", input: "a\u0000b" },
      }),
    );
    expect(error).toMatchObject({ code: "invalid_request", param: "/input" });
  });
});
