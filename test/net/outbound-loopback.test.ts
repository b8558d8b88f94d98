import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedRequest, OutboundError, urlRefusal, type OutboundPolicy } from "../../core/net/index.js";
import { startHarness, type Harness } from "../support/harness.js";
import { startReceiver, type Receiver } from "../callbacks/receiver.js";

// Issue 13, item 9: with OUTBOUND_ALLOW_LOOPBACK_HTTP=true, plain http:// reached any host, not only loopback as
// docs/decisions.md says. Now an http URL must be a loopback literal, or a name every address of which is loopback.
const DEV: OutboundPolicy = { allowLoopbackHttp: true };
const RULE = "must be an HTTPS URL (plain http reaches loopback addresses only)";

let h: Harness;
let r: Receiver;
beforeAll(async () => {
  h = await startHarness({ env: { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true" } });
  r = await startReceiver();
});
afterAll(async () => {
  await r?.close();
  await h?.close();
});

async function refusal(policy: OutboundPolicy, url: string): Promise<OutboundError> {
  const error = await guardedRequest(policy, { method: "GET", url, timeoutMs: 5000, maxResponseBytes: 1024 }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe("the development switch", () => {
  it("admits plain http to a loopback literal or localhost, and refuses it to a public literal", () => {
    expect(urlRefusal("http://127.0.0.1:8080/hook", DEV)).toBeNull();
    expect(urlRefusal("http://[::1]/hook", DEV)).toBeNull();
    expect(urlRefusal("http://localhost/hook", DEV)).toBeNull();
    expect(urlRefusal("http://93.184.216.34/hook", DEV)).toBe(RULE);
    expect(urlRefusal("http://[2606:2800:220:1::1]/hook", DEV)).toBe(RULE);
    expect(urlRefusal("https://93.184.216.34/hook", DEV)).toBeNull();
  });

  it("refuses plain http to a name that resolves to a public address, before connecting", async () => {
    const resolve = async () => [{ address: "93.184.216.34", family: 4 as const }];
    const error = await refusal({ ...DEV, resolve }, "http://public.test/");
    expect(error.failure).toBe("refused");
    expect(error.message).toBe(`http://public.test ${RULE}`);
    const loopback = await guardedRequest(
      { ...DEV, resolve: async () => [{ address: "127.0.0.1", family: 4 }] },
      { method: "POST", url: `http://pinned.test:${new URL(r.url).port}/ok`, body: "{}", timeoutMs: 5000, maxResponseBytes: 1024 },
    );
    expect(loopback.status).toBeLessThan(300);
  });

  it("refuses a plain-http callback_url to a public literal at admission", async () => {
    const response = await h.request("POST", "/v1/audio/speech", {
      idempotencyKey: randomUUID(),
      body: { voice: "en_female_aria", input: "Hi.", callback_url: "http://93.184.216.34/hook" },
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: "invalid_request", param: "/callback_url" });
    expect(response.body.error.details.errors[0].reason).toBe(RULE);
  });
});
