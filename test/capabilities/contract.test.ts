import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITIES } from "../../core/index.js";
import { balance, ledgerEntries, startHarness, waitForTask, type Harness } from "../support/harness.js";

// The rules every task-creating endpoint shares, run over the whole capability table.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ credits: "100000" });
});
afterAll(async () => h?.close());

const post = (path: string, body: unknown) => h.request("POST", path, { body, idempotencyKey: randomUUID() });

describe.each(CAPABILITIES.map((c) => [c.id, c] as const))("%s", (_id, capability) => {
  it("admits its minimal example with 202 queued", async () => {
    const response = await post(capability.path, capability.example);
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    expect(response.body).toMatchObject({ object: "task", status: "queued", capability: capability.id });
    expect(typeof response.body.resolved_model).toBe("string");
  });

  it("refuses an unknown field", async () => {
    const response = await post(capability.path, { ...capability.example, surprise: true });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: "invalid_request", param: "/surprise" });
  });

  it("bounds metadata at 16 keys, 64-character keys and 512-character values", async () => {
    const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, "v"]));
    expect((await post(capability.path, { ...capability.example, metadata: sixteen })).status).toBe(202);
    const seventeen = { ...sixteen, k16: "v" };
    const tooMany = await post(capability.path, { ...capability.example, metadata: seventeen });
    expect(tooMany.body.error).toMatchObject({ code: "invalid_request", param: "/metadata" });
    const longKey = await post(capability.path, { ...capability.example, metadata: { ["k".repeat(65)]: "v" } });
    expect(longKey.body.error.param).toBe(`/metadata/${"k".repeat(65)}`);
    const longValue = await post(capability.path, { ...capability.example, metadata: { k: "v".repeat(513) } });
    expect(longValue.body.error.param).toBe("/metadata/k");
    const atBounds = await post(capability.path, { ...capability.example, metadata: { ["k".repeat(64)]: "v".repeat(512) } });
    expect(atBounds.status).toBe(202);
  });

  it("requires an HTTPS callback_url, and a callback_url for a signing key", async () => {
    const plain = await post(capability.path, { ...capability.example, callback_url: "http://example.com/hook" });
    expect(plain.status).toBe(422);
    expect(plain.body.error).toMatchObject({ code: "invalid_request", param: "/callback_url" });
    const keyOnly = await post(capability.path, { ...capability.example, callback_signing_key_id: "csk_1" });
    expect(keyOnly.status).toBe(422);
    expect(keyOnly.body.error.code).toBe("callback_url_required");
  });

  it("requires the Idempotency-Key header", async () => {
    const response = await h.request("POST", capability.path, { body: capability.example });
    expect(response.status).toBe(422);
    expect(response.body.error.details.header).toBe("Idempotency-Key");
  });
});

describe("a task whose vendor family has no adapter in the worker", () => {
  it("ends failed with model_unavailable, refunded to the micro-credit", async () => {
    // Every configured family has an adapter, so a worker that lacks one (an older worker during a rolling
    // deploy) is played by pointing an admitted task at a family this worker does not know.
    const capability = CAPABILITIES.find((c) => c.id === "text_to_music")!;
    const created = await post(capability.path, { ...capability.example, model: "vendorG-6" });
    expect(created.status).toBe(202);
    await h.core.db.execute(sql`update tasks set provider_family = 'vendorZ' where id = ${created.body.task_id}`);
    expect(h.core.providers.get("vendorZ" as never)).toBeUndefined();
    await h.startWorker();
    const done = await waitForTask(h, created.body.task_id, ["failed", "succeeded"]);
    await h.stopWorker();
    expect(done.error).toMatchObject({ code: "model_unavailable", retryable: true });
    expect(done.error.message).toContain("no adapter for its vendor family vendorZ");
    expect(done.billing.refunded_credits).toBe(done.billing.charged_credits);
    expect(done.billing.net_charged_credits).toBe("0.000000");
    const entries = (await ledgerEntries(h)).filter((e) => e.task_id === done.task_id);
    expect(entries.map((e) => e.kind)).toEqual(["hold", "release"]);
    expect(entries[0]!.amount).toBe(entries[1]!.amount);
    const after = await balance(h);
    expect(after.granted).toBe(after.available + after.held + after.spent);
  });
});
