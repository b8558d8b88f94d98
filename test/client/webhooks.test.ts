import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, WebhookVerificationError, type MediaTaskClient } from "../../client/src/index.js";
import { startReceiver, type ReceivedRequest, type Receiver } from "../callbacks/receiver.js";
import { startHarness, type Harness } from "../support/harness.js";

// webhooks.verify against real deliveries: the service signs and POSTs each task's event to a receiver on
// loopback (the development switch on), and the client's check is run on what arrived, byte for byte.
let h: Harness;
let client: MediaTaskClient;
let receiver: Receiver;

beforeAll(async () => {
  h = await startHarness({ worker: true, env: { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true", WORKER_POLL_INTERVAL_MS: "20" } });
  client = createClient({ baseUrl: h.baseUrl, apiKey: h.apiKey });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

async function signingKey(): Promise<{ id: string; secret: string }> {
  const created = await h.request("POST", "/v1/callback-signing-keys", { body: { name: "client test" } });
  expect(created.status).toBe(201);
  return created.body;
}

async function delivery(keyId: string): Promise<{ taskId: string; received: ReceivedRequest }> {
  const before = receiver.requests.length;
  const task = await client.create("text_to_speech", {
    voice: "en_female_aria",
    input: "A signed callback.",
    callback_url: `${receiver.url}/hooks`,
    callback_signing_key_id: keyId,
  });
  const received = (await receiver.waitForRequests(before + 1))[before]!;
  return { taskId: task.task_id, received };
}

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error as WebhookVerificationError).reason);

describe("webhooks.verify", () => {
  it("accepts a real delivery and answers its event; refuses a changed body, another secret, an old timestamp", async () => {
    const key = await signingKey();
    const { taskId, received } = await delivery(key.id);
    const { rawBody, headers } = received;

    const event = await client.webhooks.verify(rawBody, headers, key.secret);
    expect(event).toMatchObject({ event_type: "task.succeeded", task: { task_id: taskId, status: "succeeded" } });
    expect(event.event_id).toBe(headers["x-event-id"]);
    // The same check from a Fetch API Headers object and from the body's bytes.
    const fetchHeaders = new Headers(Object.entries(headers).map(([name, value]) => [name, String(value)]));
    expect((await client.webhooks.verify(new TextEncoder().encode(rawBody), fetchHeaders, key.secret)).event_id).toBe(event.event_id);

    expect(await refusal(client.webhooks.verify(rawBody.replace("succeeded", "succeedeD"), headers, key.secret))).toBe("signature_mismatch");
    expect(await refusal(client.webhooks.verify(`${rawBody} `, headers, key.secret))).toBe("signature_mismatch");
    expect(await refusal(client.webhooks.verify(rawBody, headers, `${key.secret}x`))).toBe("signature_mismatch");
    const t = Number(headers["x-timestamp"]);
    expect(await refusal(client.webhooks.verify(rawBody, headers, key.secret, { nowSeconds: t + 301 }))).toBe("timestamp_out_of_tolerance");
    expect(await refusal(client.webhooks.verify(rawBody, headers, key.secret, { nowSeconds: t - 301 }))).toBe("timestamp_out_of_tolerance");
    expect(await client.webhooks.verify(rawBody, headers, key.secret, { nowSeconds: t + 300 })).toMatchObject({ event_id: event.event_id });
    // A replayed signature cannot be moved to another time: t is inside the signed string.
    const moved = { ...headers, "x-signature": String(headers["x-signature"]).replace(/^t=\d+/, `t=${t + 1}`) };
    expect(await refusal(client.webhooks.verify(rawBody, moved, key.secret))).toBe("signature_mismatch");
    expect(await refusal(client.webhooks.verify(rawBody, { ...headers, "x-signature": undefined }, key.secret))).toBe("missing_signature");
    expect(await refusal(client.webhooks.verify(rawBody, { "x-signature": "v1=abc" }, key.secret))).toBe("malformed_signature");
  });

  it("during a rotation's grace period accepts the delivery with the old secret or the new one, and with a list of secrets", async () => {
    const key = await signingKey();
    const rotated = await h.request("POST", `/v1/callback-signing-keys/${key.id}/rotate`, { body: { grace_period_seconds: 3600 } });
    expect(rotated.status).toBe(200);
    const { received } = await delivery(key.id);
    expect(String(received.headers["x-signature"]).match(/v1=/g)).toHaveLength(2);

    for (const secret of [key.secret, rotated.body.secret as string, ["whsec_unrelated", key.secret]]) {
      expect(await client.webhooks.verify(received.rawBody, received.headers, secret)).toMatchObject({ event_type: "task.succeeded" });
    }
    expect(await refusal(client.webhooks.verify(received.rawBody, received.headers, "whsec_unrelated"))).toBe("signature_mismatch");
  });
});
