import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchAllowingLoopback } from "../../core/oauth/server/metadata-document-fetch.js";

// The authorization server's fetch of client ID metadata documents under OUTBOUND_ALLOW_LOOPBACK_HTTP: a loopback
// destination goes without oidc-provider's guard (which refuses every special-use address), a public one keeps it,
// and a private one is refused before any connection.

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((_request, response) => response.writeHead(200, { "content-type": "application/json" }).end("{}"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client.json`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// Stands in for oidc-provider's guard: records that it was asked to connect, and refuses.
function guard() {
  const used: string[] = [];
  return {
    used,
    dispatcher: {
      dispatch(options: { origin?: unknown }) {
        used.push(String(options.origin));
        throw new Error("refused by the guard");
      },
    } as unknown as RequestInit["dispatcher"],
  };
}

describe("fetchAllowingLoopback", () => {
  it("reaches a loopback address without the guard", async () => {
    const { used, dispatcher } = guard();
    const response = await fetchAllowingLoopback(url, { dispatcher });
    expect(response.status).toBe(200);
    expect(used).toEqual([]);
  });

  it("leaves a public address to the guard", async () => {
    const { used, dispatcher } = guard();
    await expect(fetchAllowingLoopback("https://93.184.215.14/client.json", { dispatcher })).rejects.toThrow();
    expect(used).toEqual(["https://93.184.215.14"]);
  });

  it("refuses a private address before connecting", async () => {
    const { used, dispatcher } = guard();
    await expect(fetchAllowingLoopback("https://10.1.2.3/client.json", { dispatcher })).rejects.toMatchObject({ failure: "refused" });
    expect(used).toEqual([]);
  });
});
