import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { guardedRequest } from "../../core/net/index.js";

// A download that needs a vendor's key sends it to the vendor's origin only: a redirect to another origin (the
// vendor's storage, or anywhere a compromised answer points) is followed without the caller's headers.

interface Origin {
  url: string;
  seen: IncomingHttpHeaders[];
  server: Server;
}

async function startOrigin(answer: (path: string) => { status: number; location?: string }): Promise<Origin> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, reply) => {
    seen.push(request.headers);
    const { status, location } = answer(request.url ?? "/");
    reply.writeHead(status, location ? { location } : {}).end(status === 200 ? "media" : "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

let storage: Origin;
let vendor: Origin;
beforeAll(async () => {
  storage = await startOrigin(() => ({ status: 200 }));
  vendor = await startOrigin((path) =>
    path === "/files/a:download" ? { status: 302, location: "/files/a/bytes" } : path === "/files/b:download" ? { status: 302, location: `${storage.url}/b` } : { status: 200 },
  );
});
afterAll(async () => {
  for (const origin of [storage, vendor]) await new Promise((resolve) => origin.server.close(resolve));
});

const download = (url: string) =>
  guardedRequest({ allowLoopbackHttp: true }, { method: "GET", url, headers: { "x-goog-api-key": "secret" }, timeoutMs: 5000, maxResponseBytes: 1024, maxRedirects: 3 });

it("keeps the caller's headers on a redirect within the origin", async () => {
  const response = await download(`${vendor.url}/files/a:download`);
  expect(response.status).toBe(200);
  expect(vendor.seen.map((headers) => headers["x-goog-api-key"])).toEqual(["secret", "secret"]);
});

it("drops them on a redirect to another origin", async () => {
  const response = await download(`${vendor.url}/files/b:download`);
  expect(response.status).toBe(200);
  expect(response.url).toBe(`${storage.url}/b`);
  expect(storage.seen).toHaveLength(1);
  expect(storage.seen[0]?.["x-goog-api-key"]).toBeUndefined();
});
