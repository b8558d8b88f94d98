import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { ledgerEntries, startHarness, waitForTask, type Harness } from "../support/harness.js";

// Media inputs through admission and the worker: the checks that need nothing fetched answer at once; fetching
// and decoding happen in the worker, and a bad input ends the task failed with SPEC.md's code at the field, fully
// refunded. The development switch is on here so a loopback server can play a media host.
let h: Harness;
let strict: Harness;
let host: Server;
let hostUrl: string;
let png: Buffer;
const WAV = Buffer.concat([Buffer.from("RIFF\0\0\0\0WAVEfmt "), Buffer.alloc(64)]);

beforeAll(async () => {
  h = await startHarness({ worker: true, credits: "1000", env: { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true", MEDIA_INPUT_MAX_BYTES: "200000" } });
  strict = await startHarness({ worker: true });
  png = await runFfmpeg(["-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1", "-f", "image2", "-c:v", "png", "pipe:1"]);
  host = createServer((request, response) => {
    if (request.url === "/red.png") return void response.writeHead(200, { "content-type": "image/png" }).end(png);
    if (request.url === "/to-metadata") return void response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" }).end();
    if (request.url === "/to-private") return void response.writeHead(302, { location: "http://10.1.2.3/x.png" }).end();
    if (request.url === "/broken") return void response.writeHead(500).end("upstream down");
    if (request.url === "/text") return void response.writeHead(200, { "content-type": "image/png" }).end("not an image at all, just text");
    if (request.url === "/sound") return void response.writeHead(200, { "content-type": "image/png" }).end(WAV);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await h?.close();
  await strict?.close();
  await new Promise((resolve) => host?.close(resolve));
});

const transform = (image: unknown, harness: Harness = h) =>
  harness.request("POST", "/v1/images/image-to-image", {
    body: { prompt: "the same, in blue", images: [image], model: "vendorE-image-2.5-flare" },
    idempotencyKey: randomUUID(),
  });

async function failedWith(image: unknown, harness: Harness = h) {
  const created = await transform(image, harness);
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  const task = await waitForTask(harness, created.body.task_id, ["failed", "succeeded"]);
  const entries = (await ledgerEntries(harness)).filter((e) => e.task_id === task.task_id);
  expect(entries.map((e) => e.kind)).toEqual(["hold", "release"]);
  return task;
}

// The vendor received the resolved input: the task ends with an image derived from it.
async function succeededWith(image: unknown) {
  const created = await transform(image);
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  const task = await waitForTask(h, created.body.task_id, ["failed", "succeeded"]);
  expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
  expect(task.output.artifacts[0]).toMatchObject({ kind: "image", width: 2048, height: 1152 });
  return task;
}

describe("checks at admission", () => {
  it.each([
    ["https://127.0.0.1/a.png"],
    ["https://10.0.0.7/a.png"],
    ["https://169.254.169.254/latest/meta-data"],
    ["https://[::1]/a.png"],
    ["https://[::ffff:127.0.0.1]/a.png"],
    ["https://[::ffff:a00:1]/a.png"],
    ["https://2130706433/a.png"],
    ["https://0x7f.0.0.1/a.png"],
  ])("refuses %s with 422 at the url field (development switch off)", async (url) => {
    const response = await transform({ type: "url", url }, strict);
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: "invalid_request", param: "/images/0/url" });
  });

  it("keeps private and metadata addresses refused even with the development switch on", async () => {
    for (const url of ["http://10.0.0.7/a.png", "http://169.254.169.254/latest/meta-data", "http://[fd00::1]/a.png"]) {
      const response = await transform({ type: "url", url });
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: "invalid_request", param: "/images/0/url" });
    }
  });

  it("refuses an unknown artifact (404) and an oversized data URI (413) at their fields", async () => {
    const unknown = await transform({ type: "artifact", artifact_id: "art_nope" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: "artifact_not_found", param: "/images/0/artifact_id" });
    const big = await transform(`data:image/png;base64,${Buffer.alloc(300_000).toString("base64")}`);
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ code: "media_too_large", param: "/images/0" });
  });
});

describe("resolution in the worker", () => {
  it("fetches an allowed URL, decodes it and goes on to the vendor", async () => {
    await succeededWith({ type: "url", url: `${hostUrl}/red.png` });
  });

  it("uses an uploaded artifact", async () => {
    const upload = await h.request("POST", "/v1/assets", { body: { content_base64: png.toString("base64"), filename: "red.png" } });
    await succeededWith({ type: "artifact", artifact_id: upload.body.artifact_id });
  });

  it("refuses a name that resolves to a private address, and redirects to private or metadata addresses", async () => {
    const named = await failedWith({ type: "url", url: `https://localhost:1/a.png` }, strict);
    expect(named.error).toMatchObject({ code: "invalid_request", param: "/images/0/url" });
    for (const path of ["/to-metadata", "/to-private"]) {
      const task = await failedWith({ type: "url", url: `${hostUrl}${path}` });
      expect(task.error).toMatchObject({ code: "invalid_request", param: "/images/0/url", retryable: false });
    }
  });

  it("ends media_fetch_failed (retryable) when the host keeps failing", async () => {
    const task = await failedWith({ type: "url", url: `${hostUrl}/broken` });
    expect(task.error).toMatchObject({ code: "media_fetch_failed", param: "/images/0/url", retryable: true });
  });

  it("sniffs the bytes, whatever the server claims, and refuses what does not decode", async () => {
    // Bytes of no media type are malformed media (SPEC.md: invalid_media), whatever the server's Content-Type.
    const text = await failedWith({ type: "url", url: `${hostUrl}/text` });
    expect(text.error).toMatchObject({ code: "invalid_media", param: "/images/0" });
    // A data URI whose bytes contradict the type it declares is malformed; media of the wrong kind is unsupported
    // for the field (found from the bytes, whatever the server says), and so at admission when a data URI says so.
    const claimed = await failedWith(`data:image/png;base64,${WAV.toString("base64")}`);
    expect(claimed.error).toMatchObject({ code: "invalid_media", param: "/images/0", details: { declared: "image/png", received: "audio/wav" } });
    const audio = await failedWith({ type: "url", url: `${hostUrl}/sound` });
    expect(audio.error).toMatchObject({ code: "unsupported_media_type", param: "/images/0", details: { expected_kind: "image", received: "audio/wav" } });
    const declared = await transform(`data:audio/wav;base64,${WAV.toString("base64")}`);
    expect(declared.status).toBe(422);
    expect(declared.body.error).toMatchObject({ code: "unsupported_media_type", param: "/images/0", details: { expected_kind: "image", received: "audio/wav" } });
    const truncated = await failedWith(`data:image/png;base64,${png.subarray(0, 40).toString("base64")}`);
    expect(truncated.error).toMatchObject({ code: "invalid_media", param: "/images/0" });
  });
});
