import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emulatorRequests } from "../support/emulator-control.js";
import { startHarness, type Harness } from "../support/harness.js";

// A preset voice's stock sample (GET /v1/voices/{voice_id}/sample): free to whoever asks, made once by the service
// with the default vendor and kept; no task, no ledger line, nothing in anyone's History.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(async () => h?.close());

const speechCalls = async () => (await emulatorRequests(h)).filter((r) => r.family === "vendorA" && r.method === "POST").length;

describe("GET /v1/voices/{voice_id}/sample", () => {
  it("answers a preset voice's audio without a key, made once, charging and recording nothing", async () => {
    const creditsBefore = (await h.request("GET", "/v1/credits")).body;
    const callsBefore = await speechCalls();

    const first = await fetch(`${h.baseUrl}/v1/voices/en_female_aria/sample`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("audio/mpeg");
    const bytes = Buffer.from(await first.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1000);
    expect(bytes.length).toBe(Number(first.headers.get("content-length")));
    expect(await speechCalls()).toBe(callsBefore + 1);

    // Kept: the same bytes again, from the store, with no second vendor call; seekable and cacheable.
    const [again, range, cached] = await Promise.all([
      fetch(`${h.baseUrl}/v1/voices/en_female_aria/sample`),
      fetch(`${h.baseUrl}/v1/voices/en_female_aria/sample`, { headers: { range: "bytes=0-99" } }),
      fetch(`${h.baseUrl}/v1/voices/en_female_aria/sample`, { headers: { "if-none-match": first.headers.get("etag") ?? "" } }),
    ]);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(bytes.subarray(0, 100))).toBe(true);
    expect(cached.status).toBe(304);
    expect(await speechCalls()).toBe(callsBefore + 1);

    // Nothing for the tenant: no task, the balance and the ledger as they were.
    expect((await h.request("GET", "/v1/tasks?limit=100")).body.data).toEqual([]);
    expect((await h.request("GET", "/v1/credits")).body).toEqual(creditsBefore);
  });

  it("refuses a voice that is not a preset with voice_not_found", async () => {
    const answer = await fetch(`${h.baseUrl}/v1/voices/voice_nobody/sample`);
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("voice_not_found");
  });
});
