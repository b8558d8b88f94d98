import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { guardedRequest, OutboundError, type OutboundPolicy } from "../../core/net/index.js";
import { ledgerEntries, startHarness, waitForTask, type Harness } from "../support/harness.js";

// Slow media sources are cut off (issue 31): a source must answer within the first-byte time and then keep a
// minimum rate over a sliding window, and a download that fails says why (details.reason). Only what a later
// attempt can change (a failed connection, a 5xx) is tried again; a source that stalls, drips or answers 4xx ends
// the task at once, so it holds a worker slot for one window, not for every retry.

const DEV: OutboundPolicy = { allowLoopbackHttp: true };
const PACE = { firstByteMs: 400, minBytesPerSecond: 1024, windowMs: 800 };

let png: Buffer;
let host: Server;
let hostUrl: string;
const hits: Record<string, number> = {};
const open = new Set<ServerResponse>();

// Sends `bytes` one at a time, `everyMs` apart, after the headers; ends when done.
function drip(response: ServerResponse, bytes: Buffer, everyMs: number): void {
  response.writeHead(200, { "content-type": "image/png" });
  let sent = 0;
  const timer = setInterval(() => {
    if (response.destroyed || sent >= bytes.length) {
      clearInterval(timer);
      if (!response.destroyed) response.end();
      return;
    }
    response.write(bytes.subarray(sent, sent + 1));
    sent++;
  }, everyMs);
}

function route(request: IncomingMessage, response: ServerResponse): void {
  const path = request.url ?? "";
  hits[path] = (hits[path] ?? 0) + 1;
  open.add(response);
  response.on("close", () => open.delete(response));
  if (path === "/quick.png") return void response.writeHead(200).end(png);
  if (path === "/silent") return; // never answers
  if (path === "/headers-only") return void response.writeHead(200, { "content-type": "image/png" }).flushHeaders();
  if (path === "/drip.png") return drip(response, png, 100);
  if (path === "/pause.png") {
    // Half the bytes, a pause shorter than the window, then the rest: within the rate over every window.
    response.writeHead(200, { "content-type": "image/png" });
    response.write(png.subarray(0, png.length >> 1));
    setTimeout(() => response.end(png.subarray(png.length >> 1)), PACE.windowMs / 2);
    return;
  }
  if (path === "/gone.png") return void response.writeHead(404).end("no such image");
  if (path === "/busy.png") return void response.writeHead(503).end("busy");
  response.writeHead(404).end();
}

let h: Harness;
beforeAll(async () => {
  png = await runFfmpeg(["-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1", "-f", "image2", "-c:v", "png", "pipe:1"]);
  host = createServer(route);
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  h = await startHarness({
    worker: true,
    credits: "1000",
    env: {
      OUTBOUND_ALLOW_LOOPBACK_HTTP: "true",
      MEDIA_FETCH_TIMEOUT_MS: "20000",
      MEDIA_FETCH_FIRST_BYTE_TIMEOUT_MS: String(PACE.firstByteMs),
      MEDIA_FETCH_MIN_BYTES_PER_SECOND: String(PACE.minBytesPerSecond),
      MEDIA_FETCH_RATE_WINDOW_MS: String(PACE.windowMs),
    },
  });
});
afterAll(async () => {
  await h?.close();
  for (const response of open) response.destroy();
  await new Promise((resolve) => host?.close(resolve));
});

async function fetchWithPace(path: string, timeoutMs = 20_000) {
  return guardedRequest(DEV, { method: "GET", url: `${hostUrl}${path}`, timeoutMs, pace: PACE, maxResponseBytes: 1_000_000 });
}

async function failure(path: string, timeoutMs?: number): Promise<OutboundError> {
  const error = await fetchWithPace(path, timeoutMs).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe("the pace of an outbound request", () => {
  it("passes a source that keeps the rate, a pause shorter than the window included", async () => {
    expect((await fetchWithPace("/quick.png")).body.equals(png)).toBe(true);
    expect((await fetchWithPace("/pause.png")).body.equals(png)).toBe(true);
  });

  it("cuts off a source that never answers, or answers and sends nothing, as stalled", async () => {
    expect(await failure("/silent")).toMatchObject({ failure: "stalled", message: `no answer within ${PACE.firstByteMs} ms` });
    expect(await failure("/headers-only")).toMatchObject({ failure: "stalled", message: expect.stringMatching(/^not a byte in \d+ ms$/) });
  });

  it("cuts off a source that drips under the minimum rate as too slow", async () => {
    const error = await failure("/drip.png");
    expect(error.failure).toBe("too_slow");
    expect(error.message).toMatch(/^\d+ bytes in the last \d+ ms, under the minimum of 1024 bytes per second$/);
  });

  it("still ends the whole exchange at its time limit", async () => {
    expect(await failure("/silent", 100)).toMatchObject({ failure: "timeout" });
  });
});

describe("a task whose media source is slow or refuses", () => {
  async function failedTask(path: string) {
    const created = await h.request("POST", "/v1/images/responses", {
      body: { model: "vendorA-M3", prompt: "what is this?", images: [{ type: "url", url: `${hostUrl}${path}` }] },
      idempotencyKey: randomUUID(),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const task = await waitForTask(h, created.body.task_id, ["failed", "succeeded"]);
    expect(task.status).toBe("failed");
    const entries = (await ledgerEntries(h)).filter((e) => e.task_id === task.task_id);
    expect(entries.map((e) => e.kind)).toEqual(["hold", "release"]);
    return task;
  }

  it.each([
    ["/drip.png", "too_slow", {}],
    ["/headers-only", "stalled", {}],
    ["/gone.png", "http_status", { status: 404 }],
  ])("fails %s media_fetch_failed (%s) at the field after one try", async (path, reason, details) => {
    const before = hits[path] ?? 0;
    const task = await failedTask(path);
    expect(task.error).toMatchObject({ code: "media_fetch_failed", param: "/images/0/url", details: { reason, ...details } });
    expect(hits[path]).toBe(before + 1);
  });

  it("tries a source answering 5xx again before failing", async () => {
    const task = await failedTask("/busy.png");
    expect(task.error).toMatchObject({ code: "media_fetch_failed", param: "/images/0/url", details: { reason: "http_status", status: 503 } });
    expect(hits["/busy.png"]).toBeGreaterThan(1);
  });
});
