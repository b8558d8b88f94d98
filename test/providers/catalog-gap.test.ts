import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "./contract-support.js";
import { createTask, expectFullRefund, followTask } from "./video-support.js";
import { startHarness, type Harness } from "../support/harness.js";

// A vendor that refuses a request's parameters after admission has a limit the catalog does not know: the task
// fails with unsupported_option (not retryable, so a client following SPEC.md does not loop), keeps the vendor's
// wording, is refunded, and is counted as a catalog gap so it gets found.

let h: Harness;
let vendor: { url: string; close(): Promise<void> };
let calls = 0;

beforeAll(async () => {
  const server = createServer((_request, reply) => {
    calls += 1;
    reply.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ base_resp: { status_code: 2013, status_msg: "invalid params, text is too long for this voice" } }));
  });
  const url = await listen(server);
  vendor = { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
  h = await startHarness({ worker: true, env: { VENDOR_A_BASE_URL: url, PROVIDER_RETRY_BASE_MS: "10" } });
});
afterAll(async () => {
  await h?.close();
  await vendor?.close();
});

describe("a vendor's refusal of parameters the catalog admitted", () => {
  it("fails once with unsupported_option and the vendor's words, refunded, counted as a catalog gap", async () => {
    const gaps = async () => (await h.core.metrics.catalogGaps.get()).values.find((v) => v.labels.model === "vendorA-speech-2.8-hd")?.value ?? 0;
    const before = await gaps();
    const created = await createTask(h, "/v1/audio/speech", { model: "vendorA-speech-2.8-hd", voice: "en_female_aria", input: "Hello there." });
    const { task } = await followTask(h, created.task_id);
    expect(task.status).toBe("failed");
    expect(task.error).toMatchObject({ code: "unsupported_option", retryable: false });
    expect(task.error.message).toContain("invalid params, text is too long for this voice");
    expect(calls).toBe(1);
    await expectFullRefund(h, task);
    expect(await gaps()).toBe(before + 1);
  });
});
