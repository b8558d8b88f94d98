import { createHash, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTenantRateLimits } from "../../core/index.js";
import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { countRows, startHarness, waitForTask, type Harness } from "../support/harness.js";
import { eventually } from "../support/wait.js";

// Inline media is never echoed (envelope, list, callback, replay), a body over the limit is 413 media_too_large,
// refused media URLs say how to send local media, and uploads stop at the tenant's quota.
let h: Harness;
let receiver: Server;
let receiverUrl: string;
const callbacks: { bytes: number; body: { task: { task_id: string; input: Record<string, unknown> } } }[] = [];
let png: Buffer;

beforeAll(async () => {
  h = await startHarness({ worker: true, credits: "1000", env: { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true" } });
  png = await runFfmpeg(["-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1", "-f", "image2", "-c:v", "png", "pipe:1"]);
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      callbacks.push({ bytes: Buffer.byteLength(text), body: JSON.parse(text) });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await h?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const transform = (images: unknown[], key = randomUUID(), extra: Record<string, unknown> = {}) =>
  h.request("POST", "/v1/images/image-to-image", {
    body: { prompt: "the same, in blue", images, model: "vendorE-image-2.5-flare", ...extra },
    idempotencyKey: key,
  });

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("inline media is a reference, never its bytes", () => {
  it("shows a data URI as its type, size and digest at creation, on read and on replay, then the artifact it became", async () => {
    const key = randomUUID();
    const dataUri = `data:image/png;base64,${png.toString("base64")}`;
    const created = await transform([dataUri], key);
    expect(created.status).toBe(202);
    const reference = { type: "data_uri", content_type: "image/png", byte_size: png.length, sha256: sha256(png), artifact_id: null };
    expect(created.body.input.images).toEqual([reference]);
    const replayed = await transform([dataUri], key);
    expect(replayed.body.task_id).toBe(created.body.task_id);
    const task = await waitForTask(h, created.body.task_id, ["succeeded", "failed"]);
    expect(task.status).toBe("succeeded");
    const [resolved] = task.input.images;
    expect(resolved).toMatchObject({ ...reference, artifact_id: expect.stringMatching(/^art_/) });
    // The same request replayed answers the same task, the reference now naming its artifact.
    expect((await transform([dataUri], key)).body.input.images).toEqual([resolved]);
    // The stored task holds no bytes, and once resolved the data URI itself is gone.
    expect(await countRows(h, sql`select count(*)::int as n from tasks where id = ${task.task_id} and input::text like '%data:%'`)).toBe(0);
    expect(await countRows(h, sql`select count(*)::int as n from task_inline_media where task_id = ${task.task_id}`)).toBe(0);
  });

  it("keeps a list page small whatever its tasks were sent, and so each callback", async () => {
    // 8 MB of data that is not really a PNG: each task fails (refunded) with invalid_media, so this is free.
    const junk = Buffer.concat([png.subarray(0, 16), Buffer.alloc(8 * 1024 * 1024)]);
    const dataUri = `data:image/png;base64,${junk.toString("base64")}`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await transform([{ type: "url", url: dataUri }], randomUUID(), { callback_url: receiverUrl });
      expect(created.status).toBe(202);
      expect(JSON.stringify(created.body).length).toBeLessThan(16_000);
      ids.push(created.body.task_id);
    }
    for (const id of ids) expect((await waitForTask(h, id, ["succeeded", "failed"])).error.code).toBe("invalid_media");
    const page = await h.request("GET", "/v1/tasks?limit=3");
    expect(page.body.data.map((t: { task_id: string }) => t.task_id).sort()).toEqual([...ids].sort());
    expect(JSON.stringify(page.body).length).toBeLessThan(48_000);
    expect(page.body.data[0].input.images[0]).toMatchObject({ type: "data_uri", byte_size: junk.length, sha256: sha256(junk) });
    await eventually("three callbacks", 60_000, () => (callbacks.filter((c) => ids.includes(c.body.task.task_id)).length === 3 ? true : undefined));
    for (const callback of callbacks.filter((c) => ids.includes(c.body.task.task_id))) {
      expect(callback.bytes).toBeLessThan(16_000);
      expect(callback.body.task.input.images).toEqual([expect.objectContaining({ type: "data_uri", sha256: sha256(junk) })]);
    }
  });

  it("drops the data URI of a task that ends before any worker resolved it", async () => {
    await h.stopWorker();
    try {
      const created = await transform([`data:image/png;base64,${png.toString("base64")}`]);
      expect(await countRows(h, sql`select count(*)::int as n from task_inline_media where task_id = ${created.body.task_id}`)).toBe(1);
      const canceled = await h.request("POST", `/v1/tasks/${created.body.task_id}/cancel`);
      expect(canceled.body.status).toBe("canceled");
      expect(canceled.body.input.images[0]).toMatchObject({ type: "data_uri", sha256: sha256(png), artifact_id: null });
      expect(await countRows(h, sql`select count(*)::int as n from task_inline_media where task_id = ${created.body.task_id}`)).toBe(0);
    } finally {
      await h.startWorker();
    }
  });

  it("answers 413 media_too_large for a body over the 32 MiB limit, holding nothing", async () => {
    const before = await countRows(h, sql`select count(*)::int as n from tasks`);
    const huge = `data:image/png;base64,${Buffer.alloc(25 * 1024 * 1024).toString("base64")}`;
    const response = await transform([huge]);
    expect(response.status).toBe(413);
    expect(response.body.error).toMatchObject({ code: "media_too_large", retryable: false, details: { max_bytes: 32 * 1024 * 1024 } });
    expect(await countRows(h, sql`select count(*)::int as n from tasks`)).toBe(before);
  });
});

describe("media URLs the service will not fetch", () => {
  it("says how to pass local media instead", async () => {
    const cases = [
      // Refused by the outbound policy at admission: the rule, and a recovery action.
      [{ type: "url", url: "https://10.0.0.7/a.png" }, "/images/0/url", true],
      [{ type: "url", url: "https://user:secret@example.com/a.png" }, "/images/0/url", true],
      // Refused by the request's shape: a local path or another scheme.
      [{ type: "url", url: "file:///home/me/cat.png" }, "/images/0/url", false],
      ["/home/me/cat.png", "/images/0", false],
    ] as const;
    for (const [image, param, recovery] of cases) {
      const response = await transform([image]);
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: "invalid_request", param });
      if (recovery) expect(response.body.error.details.recovery).toMatchObject({ action: "upload_asset", requires_input_change: true });
      expect(response.body.error.message).toContain("POST /v1/assets");
      expect(response.body.error.message).toContain("svc.assets.upload");
      expect(response.body.error.message).toContain('{"type": "artifact", "artifact_id": "art_…"}');
    }
  });

  it("refuses the service's own signed artifact URL, naming the artifact reference to send", async () => {
    const upload = await h.request("POST", "/v1/assets", { body: { content_base64: png.toString("base64") } });
    const reference = { type: "artifact", artifact_id: upload.body.artifact_id };
    const response = await transform([{ type: "url", url: upload.body.url }]);
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({
      code: "invalid_request",
      param: "/images/0/url",
      details: { recovery: { action: "use_artifact_reference", replacement: reference } },
    });
    expect(response.body.error.message).toContain(JSON.stringify(reference));
    expect((await transform([reference])).status).toBe(202);
  });
});

describe("the per-tenant upload quota", () => {
  it("refuses the upload past the tenant's count or bytes with 413, storing nothing, and follows a change at once", async () => {
    const tenant = await h.newTenant("1");
    const post = () => h.request("POST", "/v1/assets", { apiKey: tenant.apiKey, body: { content_base64: png.toString("base64") } });
    await setTenantRateLimits(h.core.db, h.core.config.rateLimits, tenant.tenantId, { uploadMaxCount: 1 });
    expect((await post()).status).toBe(201);
    const overCount = await post();
    expect(overCount.status).toBe(413);
    expect(overCount.body.error).toMatchObject({ code: "media_too_large", details: { quota: "upload_count", limit: 1, used: 1 } });
    await setTenantRateLimits(h.core.db, h.core.config.rateLimits, tenant.tenantId, { uploadMaxCount: null, uploadMaxBytes: png.length * 2 - 1 });
    const overBytes = await post();
    expect(overBytes.status).toBe(413);
    expect(overBytes.body.error).toMatchObject({ code: "media_too_large", details: { quota: "upload_bytes", limit: png.length * 2 - 1, used: png.length } });
    expect(await countRows(h, sql`select count(*)::int as n from artifacts where tenant_id = ${tenant.tenantId}`)).toBe(1);
    await setTenantRateLimits(h.core.db, h.core.config.rateLimits, tenant.tenantId, { uploadMaxBytes: null });
    expect((await post()).status).toBe(201);
  });
});
