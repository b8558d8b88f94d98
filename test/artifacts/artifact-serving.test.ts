import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { startHarness, type Harness } from "../support/harness.js";

// Artifacts served as safe, seekable media, the same from the filesystem store and from S3 (s3rver): the type
// sniffed from the bytes, never executed by a browser, byte ranges (206, 416), HEAD, and conditional requests.
let server: S3rver;
let directory: string;
let png: Buffer;
const harnesses: Record<string, Harness> = {};

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "s3rver-"));
  server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: "artifacts", configs: [] }] });
  const { port } = await server.run();
  png = await runFfmpeg(["-f", "lavfi", "-i", "testsrc=s=160x120", "-frames:v", "1", "-f", "image2", "-c:v", "png", "pipe:1"]);
  harnesses.filesystem = await startHarness();
  harnesses.s3 = await startHarness({
    env: {
      ARTIFACT_STORE: "s3",
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: "artifacts",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    },
  });
});
afterAll(async () => {
  for (const h of Object.values(harnesses)) await h.close();
  await server?.close();
  await rm(directory, { recursive: true, force: true });
});

async function upload(h: Harness, bytes: Buffer, extra: Record<string, unknown> = {}) {
  return h.request("POST", "/v1/assets", { body: { content_base64: bytes.toString("base64"), ...extra } });
}

async function get(url: string, headers: Record<string, string> = {}, method = "GET") {
  const response = await fetch(url, { method, headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe.each(["filesystem", "s3"])("artifacts from the %s store", (store) => {
  const h = () => harnesses[store] as Harness;

  it("serves the sniffed type with nosniff, a sandboxing CSP, inline disposition and range support", async () => {
    // The declared filename says HTML; the bytes are a PNG, and the bytes decide.
    const stored = await upload(h(), png, { filename: "page.html" });
    expect(stored.status).toBe(201);
    expect(stored.body).toMatchObject({ kind: "image", content_type: "image/png" });
    const whole = await get(stored.body.url);
    expect(whole.status).toBe(200);
    expect(whole.bytes.equals(png)).toBe(true);
    expect(Object.fromEntries(["content-type", "x-content-type-options", "content-security-policy", "accept-ranges"].map((n) => [n, whole.headers.get(n)]))).toEqual({
      "content-type": "image/png",
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox",
      "accept-ranges": "bytes",
    });
    expect(whole.headers.get("content-disposition")).toBe(`inline; filename="${stored.body.artifact_id}.png"`);
  });

  it("answers byte ranges with 206 and Content-Range, and an unsatisfiable one with 416", async () => {
    const { body } = await upload(h(), png);
    const first = await get(body.url, { range: "bytes=0-99" });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-99/${png.length}`);
    expect(first.headers.get("content-length")).toBe("100");
    expect(first.bytes.equals(png.subarray(0, 100))).toBe(true);
    const middle = await get(body.url, { range: "bytes=100-" });
    expect(middle.status).toBe(206);
    expect(middle.bytes.equals(png.subarray(100))).toBe(true);
    const suffix = await get(body.url, { range: "bytes=-10" });
    expect(suffix.headers.get("content-range")).toBe(`bytes ${png.length - 10}-${png.length - 1}/${png.length}`);
    expect(suffix.bytes.equals(png.subarray(png.length - 10))).toBe(true);
    const beyond = await get(body.url, { range: `bytes=${png.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${png.length}`);
    // A range for another version of the file (If-Range with another validator) gets the whole file.
    const stale = await get(body.url, { range: "bytes=0-9", "if-range": '"another"' });
    expect(stale.status).toBe(200);
    expect(stale.bytes.length).toBe(png.length);
  });

  it("answers HEAD with the headers and no body, and conditional requests with 304", async () => {
    const { body } = await upload(h(), png);
    const head = await get(body.url, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(png.length));
    expect(head.headers.get("etag")).toBe(`"${body.sha256}"`);
    expect(head.bytes.length).toBe(0);
    const byTag = await get(body.url, { "if-none-match": `"${body.sha256}"` });
    expect(byTag.status).toBe(304);
    expect(byTag.bytes.length).toBe(0);
    const byDate = await get(body.url, { "if-modified-since": head.headers.get("last-modified") as string });
    expect(byDate.status).toBe(304);
    const changed = await get(body.url, { "if-none-match": '"something-else"' });
    expect(changed.status).toBe(200);
  });
});

describe("uploads accept media only", () => {
  it.each([
    ["HTML", Buffer.from("<!doctype html><script>alert(document.cookie)</script>"), "text/html"],
    ["SVG", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), "image/svg+xml"],
    ["a PDF", Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj <<>> endobj"), undefined],
  ])("refuses %s with 422 unsupported_media_type, storing nothing", async (_name, bytes, contentType) => {
    const h = harnesses.filesystem as Harness;
    const response = await upload(h, bytes, contentType ? { content_type: contentType } : {});
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: "unsupported_media_type", param: "/content_base64" });
    expect(response.body.error.details.accepted).toContain("image/png");
  });

  it("refuses a content_type that contradicts the bytes with invalid_media", async () => {
    const response = await upload(harnesses.filesystem as Harness, png, { content_type: "audio/mpeg" });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: "invalid_media", param: "/content_type", details: { received: "image/png" } });
  });
});
