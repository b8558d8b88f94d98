import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, waitForTask, type Harness } from "../support/harness.js";

// Issue 26: a media URL naming a host that resolves to loopback failed with "… resolves to 127.0.0.1 …", so a caller
// could read the service's DNS (internal names included) through its errors. A media URL's error names the host
// the caller gave and the rule, never an address the host resolved to.

let strict: Harness;
let development: Harness;
beforeAll(async () => {
  strict = await startHarness({ worker: true });
  development = await startHarness({ worker: true, env: { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true" } });
});
afterAll(async () => {
  await strict?.close();
  await development?.close();
});

// `localhost` resolves to 127.0.0.1 and ::1 here.
const ADDRESSES = ["127.0.0.1", "::1"];

async function failedTask(harness: Harness, url: string) {
  const created = await harness.request("POST", "/v1/images/image-to-image", {
    body: { prompt: "the same, in blue", images: [{ type: "url", url }], model: "vendorE-image-2.5-flare" },
    idempotencyKey: randomUUID(),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  const task = await waitForTask(harness, created.body.task_id, ["failed", "succeeded"]);
  expect(task.status).toBe("failed");
  return task;
}

function expectNoAddress(error: { message: string; details?: unknown }) {
  for (const address of ADDRESSES) {
    expect(error.message).not.toContain(address);
    expect(JSON.stringify(error.details ?? null)).not.toContain(address);
  }
}

describe("a media URL whose host resolves to a loopback address", () => {
  it("fails naming the rule and the host, not the address, with loopback refused", async () => {
    const task = await failedTask(strict, "https://localhost/a.png");
    expect(task.error).toMatchObject({ code: "invalid_request", param: "/images/0/url", retryable: false });
    expect(task.error.message).toContain("localhost resolves to a private, loopback or other non-public address");
    expectNoAddress(task.error);
  });

  it("fails to connect naming the host, not the address, with loopback allowed", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const task = await failedTask(development, `http://localhost:${port}/a.png`);
    expect(task.error).toMatchObject({ code: "media_fetch_failed", param: "/images/0/url" });
    expect(task.error.message).toContain(`localhost:${port}`);
    expectNoAddress(task.error);
  });
});
