import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SSE_RETRY_MS } from "../../mcp-server/sse-priming.js";
import { startMcpHarness, type McpHarness } from "./support.js";

// The bytes of a POST answered as an event stream: on 2025-11-25 the first event is SEP-1699's priming event (an
// id, the retry field, empty data) and the answer follows; a 2026-07-28 stream and older clients' get none.

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness({ worker: false });
});
afterAll(async () => m?.close());

const CLIENT_INFO = { name: "priming-test", version: "1.0.0" };

async function post(protocol: string | null, params: Record<string, unknown> = {}): Promise<Response> {
  return fetch(m.url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${m.h.apiKey}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(protocol ? { "mcp-protocol-version": protocol } : {}),
      ...(protocol === "2026-07-28" ? { "mcp-method": "tools/list" } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list", params }),
  });
}

describe("a POST answered as an event stream", () => {
  it("on 2025-11-25 opens with an event of an id, the retry field and empty data, then the answer", async () => {
    const response = await post("2025-11-25");
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const body = await response.text();
    expect(body).toMatch(new RegExp(`^id: [0-9a-f-]{36}\\nretry: ${SSE_RETRY_MS}\\ndata: \\n\\n`));
    const events = body.split("\n\n").filter(Boolean);
    expect(events).toHaveLength(2);
    const answer = JSON.parse(events[1]!.split("\n").find((line) => line.startsWith("data: "))!.slice(6));
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: 7 });
    expect(answer.result.tools.length).toBeGreaterThan(0);
  });

  it("gives every stream an id of its own", async () => {
    const ids = await Promise.all([post("2025-11-25"), post("2025-11-25")].map(async (r) => /^id: (\S+)/.exec(await (await r).text())?.[1]));
    expect(ids[0]).toBeTruthy();
    expect(ids[0]).not.toBe(ids[1]);
  });

  it("is not primed for a client older than 2025-11-25, which would read the empty event as a broken message", async () => {
    const body = await (await post("2025-06-18")).text();
    expect(body).not.toMatch(/^id:/);
    expect(body).toMatch(/^event: message\n/);
  });

  it("is not primed on 2026-07-28, which has no stream resumption", async () => {
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const response = await post("2026-07-28", { _meta: meta });
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).not.toMatch(/^id:/);
    expect(body).toContain('"id":7');
  });

  it("a reconnection with Last-Event-ID is answered 405: no event is kept to replay, the client sends again", async () => {
    const first = await (await post("2025-11-25")).text();
    const id = /^id: (\S+)/.exec(first)?.[1] as string;
    const again = await fetch(m.url, {
      headers: { authorization: `Bearer ${m.h.apiKey}`, accept: "text/event-stream", "mcp-protocol-version": "2025-11-25", "last-event-id": id },
    });
    expect(again.status).toBe(405);
  });
});
