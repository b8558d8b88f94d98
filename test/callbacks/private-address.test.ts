import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";
import { startReceiver, type Receiver } from "./receiver.js";
import { SPEECH, waitForCallback } from "./support.js";

// The development switch is off here, as in any deployment: callback URLs must be HTTPS, and no delivery reaches
// a private, loopback, link-local or metadata address, whether the URL names it or DNS resolves to it.
let h: Harness;
let r: Receiver;
beforeAll(async () => {
  h = await startHarness({ worker: true });
  r = await startReceiver();
});
afterAll(async () => {
  await r?.close();
  await h?.close();
});

const createSpeech = (callbackUrl: string) =>
  h.request("POST", "/v1/audio/speech", { idempotencyKey: randomUUID(), body: { ...SPEECH, callback_url: callbackUrl } });

describe("with the development switch off", () => {
  it.each([
    ["http://example.com/hook", "must be an HTTPS URL"],
    ["http://127.0.0.1:8080/hook", "must be an HTTPS URL"],
    ["https://10.1.2.3/hook", "private"],
    ["https://192.168.0.10/hook", "private"],
    ["https://127.0.0.1/hook", "loopback"],
    ["https://[::1]/hook", "loopback"],
    ["https://[::ffff:127.0.0.1]/hook", "loopback"],
    ["https://2130706433/hook", "loopback"],
    ["https://169.254.169.254/latest/meta-data", "metadata"],
    ["https://[fd00:ec2::254]/latest", "metadata"],
    ["https://100.64.1.1/hook", "cgnat"],
    ["https://[fd12:3456::1]/hook", "unique-local"],
    ["https://[fe80::1]/hook", "link-local"],
    ["https://0.0.0.0/hook", "unspecified"],
    ["https://224.0.0.1/hook", "multicast"],
    ["https://user:pass@example.com/hook", "credentials"],
  ])("refuses callback_url %s at admission (422, /callback_url)", async (url, reason) => {
    const response = await createSpeech(url);
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: "invalid_request", param: "/callback_url" });
    expect(response.body.error.details.errors[0].reason).toContain(reason);
  });

  it("admits a name, then refuses the delivery at once, naming the rule and not the address", async () => {
    const port = new URL(r.url).port;
    const created = await createSpeech(`https://localhost:${port}/hook`);
    expect(created.status).toBe(202);
    const task = await waitForCallback(h, created.body.task_id, (c) => c.attempt_count >= 1);
    // Retrying on the schedule cannot help: the first refusal is final (a redelivery can try again).
    expect(task.callback).toMatchObject({ status: "failed", attempt_count: 1 });
    expect(task.callback.last_error).toBe(
      "delivery refused by the outbound policy: the callback URL must name a host whose every address is public; not retried",
    );
    expect(r.requests).toHaveLength(0);
  });
});
