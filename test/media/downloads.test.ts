import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spoolDirectory } from "../../core/media/spool.js";
import { downloadOutput } from "../../core/providers/http.js";

// Vendor outputs come through the guarded client: streamed to a file (hashed on the way), every redirect checked
// like the first URL, a cap per kind that fails at once, and the 3 attempts of SPEC.md for a failing server.
let server: Server;
let base: string;
const hits: Record<string, number> = {};
const body = Buffer.alloc(300_000, 9);

beforeAll(async () => {
  server = createServer((request, response) => {
    const route = request.url ?? "";
    hits[route] = (hits[route] ?? 0) + 1;
    if (route === "/output") return void response.writeHead(200).end(body);
    if (route === "/to-output") return void response.writeHead(302, { location: "/output" }).end();
    if (route === "/to-private") return void response.writeHead(302, { location: "http://10.1.2.3/output" }).end();
    if (route === "/to-metadata") return void response.writeHead(307, { location: "http://169.254.169.254/latest/meta-data" }).end();
    if (route === "/down") return void response.writeHead(503).end("busy");
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server?.close(resolve)));

async function download(path: string, maxBytes = 1_000_000) {
  const directory = await spoolDirectory();
  try {
    const spooled = await downloadOutput(`${base}${path}`, new AbortController().signal, {
      file: directory.file("out"),
      maxBytes,
      policy: { allowLoopbackHttp: true },
      timeoutMs: 10_000,
    });
    return { ...spooled, bytes: await readFile(spooled.path) };
  } finally {
    await directory.dispose();
  }
}

describe("vendor output downloads", () => {
  it("spools the output to a file with its size and digest, following a checked redirect", async () => {
    const result = await download("/to-output");
    expect(result.size).toBe(body.length);
    expect(result.sha256).toBe(createHash("sha256").update(body).digest("hex"));
    expect(result.bytes.equals(body)).toBe(true);
  });

  it.each(["/to-private", "/to-metadata"])("refuses a redirect from %s to a private or metadata address at once", async (path) => {
    await expect(download(path)).rejects.toMatchObject({ code: "model_output_invalid", message: expect.stringMatching(/10\.1\.2\.3|169\.254\.169\.254/) });
    expect(hits[path]).toBe(1);
  });

  it("refuses an output over its kind's cap at once, without another attempt", async () => {
    const before = hits["/output"] ?? 0;
    await expect(download("/output", body.length - 1)).rejects.toMatchObject({
      code: "model_output_invalid",
      message: expect.stringContaining(`larger than ${body.length - 1} bytes`),
    });
    expect(hits["/output"]).toBe(before + 1);
  });

  it("tries a failing server 3 times, then model_output_invalid", async () => {
    await expect(download("/down")).rejects.toMatchObject({ code: "model_output_invalid", message: expect.stringContaining("HTTP 503") });
    expect(hits["/down"]).toBe(3);
  });
});
