import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenantWithLimits } from "./support.js";
import { startMcpHarness, type McpHarness } from "../mcp/support.js";

// The MCP server counts against the same budgets as REST: each HTTP request to /mcp is one request of its
// credential (API key or access-token subject) and of its tenant.
let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness({ worker: false });
});
afterAll(async () => m?.close());

function postMcp(authorization: string) {
  return fetch(m.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
}


describe("rate limits on MCP", () => {
  it("share an API key's budget with REST and refuse with 429 rate_limited before any MCP message", async () => {
    const t = await tenantWithLimits(m.h, { perKey: 3 });
    const rest = await m.h.request("GET", "/v1/tasks", { apiKey: t.apiKey });
    const mcp = await postMcp(`Bearer ${t.apiKey}`);
    await mcp.text();
    const again = await m.h.request("GET", "/v1/tasks", { apiKey: t.apiKey });
    expect([rest.status, mcp.status, again.status]).toEqual([200, 200, 200]);
    expect([rest, mcp, again].map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["2", "1", "0"]);
    expect(mcp.headers.get("x-ratelimit-limit")).toBe("3");

    const refused = await postMcp(`Bearer ${t.apiKey}`);
    expect(refused.status).toBe(429);
    // A JSON-RPC error, REST's error in its data (mcp-server/http-auth.ts).
    const body = (await refused.json()) as { error: { code: number; data: { error: Record<string, unknown> } } };
    expect(body.error.code).toBe(-32000);
    expect(body.error.data.error).toMatchObject({ code: "rate_limited", retryable: true, details: { scope: "api_key" } });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("www-authenticate")).toBeNull();
  });

  it("count an access token against its tenant, beside the tenant's API keys", async () => {
    const t = await tenantWithLimits(m.h, { perTenant: 2 });
    const token = await m.token({ tenantId: t.tenantId });
    const viaToken = await postMcp(`Bearer ${token}`);
    await viaToken.text();
    const viaKey = await m.h.request("GET", "/v1/tasks", { apiKey: t.apiKey });
    expect([viaToken.status, viaKey.status]).toEqual([200, 200]);
    const refused = await postMcp(`Bearer ${token}`);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { data: { error: { details: { scope: string } } } } }).error.data.error.details.scope).toBe("tenant");
  });
});
