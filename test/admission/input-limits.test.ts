import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveMedia } from "../providers/contract-support.js";
import { COLOURS, dataUri, halvesPng, uploaded } from "../providers/video-media.js";
import { expectFullRefund, followTask, vendorSubmits } from "../providers/video-support.js";
import { balance, countRows, startHarness, type Harness } from "../support/harness.js";

// Every model's published input limits (docs/models.md) are checked before a task is paid for: at admission for
// the inputs whose bytes the service holds (a data URI, an artifact), in the worker for a URL once downloaded, and
// in both cases before any vendor call. `auto` passes over a model an input breaks; a concrete model is refused.

let h: Harness;
let tiny: string;
let small: { url: string; close(): Promise<void> };
const R2V = "/v1/videos/reference-to-video";

beforeAll(async () => {
  h = await startHarness({ worker: true, credits: "1000", env: { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true", WORKER_POLL_INTERVAL_MS: "100" } });
  const png = await halvesPng(64, 64, COLOURS.red!, COLOURS.blue!);
  tiny = dataUri(png, "image/png");
  small = await serveMedia(png, "image/png");
});
afterAll(async () => {
  await small?.close();
  await h?.close();
});

const reference = (media: unknown) => ({ prompt: "A fox", references: [{ kind: "image", media, role: "subject" }] });

async function expectNothingAdmitted(key: string, before: Awaited<ReturnType<typeof balance>>) {
  expect(await balance(h)).toEqual(before);
  expect(await countRows(h, sql`select count(*)::int as n from idempotency_keys where key = ${key}`)).toBe(0);
}

describe("at admission", () => {
  it("auto passes over vendorA-h3 for a 64×64 reference image and picks a model that takes it", async () => {
    const created = await h.request("POST", R2V, { body: { ...reference(tiny), resolution: "480p" }, idempotencyKey: randomUUID() });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    expect(created.body.resolved_model).toBe("vendorC3.0-video");
    expect(created.body.model_selection_reason).toContain("skipped vendorA-h3");
    const { task } = await followTask(h, created.body.task_id, 60_000);
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
  });

  it("refuses vendorA-h3 named concretely for the same reference, at the input, with nothing held or written", async () => {
    const key = randomUUID();
    const before = await balance(h);
    const refused = await h.request("POST", R2V, { body: { ...reference(tiny), model: "vendorA-h3" }, idempotencyKey: key });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "unsupported_option", param: "/references/0/media", retryable: false });
    expect(refused.body.error.details.candidate_failures).toEqual([
      expect.objectContaining({ model: "vendorA-h3", code: "unsupported_media_dimensions", received: "64×64", supported: { min_side: 256, max_side: 5760 } }),
    ]);
    await expectNothingAdmitted(key, before);
    // The key was not spent: the corrected request under it is a new admission.
    const corrected = await h.request("POST", R2V, { body: { ...reference(tiny), model: "vendorC3.0-video", resolution: "480p" }, idempotencyKey: key });
    expect(corrected.status).toBe(202);
  });

  it("reads an uploaded artifact's facts as it does a data URI's", async () => {
    const artifact = await uploaded(h, await halvesPng(64, 64, COLOURS.green!, COLOURS.blue!), "tiny.png");
    const refused = await h.request("POST", R2V, { body: { ...reference(artifact), model: "vendorB-2" }, idempotencyKey: randomUUID() });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "unsupported_option", param: "/references/0/media" });
    expect(refused.body.error.details.candidate_failures[0]).toMatchObject({ code: "unsupported_media_dimensions", supported: { min_side: 300, max_side: 6000 } });
  });

  it("answers media_too_large (413) for an input over the model's published size", async () => {
    // A PNG with trailing bytes still decodes; only its size is over vendorE's 10 MB.
    const png = Buffer.concat([await halvesPng(64, 64, COLOURS.red!, COLOURS.red!), Buffer.alloc(10_000_001)]);
    const before = await balance(h);
    const key = randomUUID();
    const body = { model: "vendorE-image-2.5-sunburst", prompt: "a red square", images: [dataUri(png, "image/png")] };
    const refused = await h.request("POST", "/v1/images/image-to-image", { body, idempotencyKey: key });
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatchObject({ code: "media_too_large", param: "/images/0", retryable: false });
    expect(refused.body.error.details.candidate_failures[0]).toMatchObject({ supported: { max_bytes: 10_000_000 } });
    await expectNothingAdmitted(key, before);
  });

  it("holds a prompt to the model's published length: a concrete model is refused at /prompt, auto passes over it", async () => {
    const prompt = "a".repeat(7001);
    const refused = await h.request("POST", "/v1/videos/text-to-video", { body: { model: "vendorA-h3", prompt }, idempotencyKey: randomUUID() });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "unsupported_option", param: "/prompt" });
    expect(refused.body.error.details.candidate_failures[0]).toMatchObject({ code: "text_too_long", received: 7001, supported: { max_characters: 7000 } });
    const auto = await h.request("POST", "/v1/videos/text-to-video", { body: { prompt }, idempotencyKey: randomUUID() });
    expect(auto.status, JSON.stringify(auto.body)).toBe(202);
    expect(auto.body).toMatchObject({ resolved_model: "vendorC3.0-video" });
    expect(auto.body.model_selection_reason).toContain("skipped vendorA-h3");
  });
});

describe("in the worker, for a URL", () => {
  it("fails the task at the input before any vendor call, not retryable, refunded", async () => {
    const before = await vendorSubmits(h, "vendorA", "vendorA-h3");
    const created = await h.request("POST", R2V, { body: { ...reference({ type: "url", url: small.url }), model: "vendorA-h3" }, idempotencyKey: randomUUID() });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const { task } = await followTask(h, created.body.task_id);
    expect(task.status).toBe("failed");
    expect(task.error).toMatchObject({ code: "unsupported_option", param: "/references/0/media", retryable: false });
    expect(task.error.details.candidate_failures[0]).toMatchObject({ code: "unsupported_media_dimensions", received: "64×64" });
    await expectFullRefund(h, task);
    expect(await vendorSubmits(h, "vendorA", "vendorA-h3")).toBe(before);
  });
});
