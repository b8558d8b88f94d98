import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";

// SPEC.md's Limits rows for speech, each at its bound (accepted) and one step past it (refused at its pointer).
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ credits: "1000" });
});
afterAll(async () => h?.close());

const speech = (extra: Record<string, unknown>) =>
  h.request("POST", "/v1/audio/speech", {
    body: { voice: "en_female_aria", input: "Bounds.", ...extra },
    idempotencyKey: randomUUID(),
  });

describe("speech bounds", () => {
  it.each([
    ["speed", 0.5, 0.49],
    ["speed", 2, 2.01],
    ["volume", 10, 10.01],
    ["volume", 0.01, 0],
    ["pitch", -1, -1.01],
    ["pitch", 1, 1.01],
  ])("%s: %s accepted, %s refused", async (field, ok, past) => {
    expect((await speech({ [field]: ok })).status).toBe(202);
    const refused = await speech({ [field]: past });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "invalid_request", param: `/${field}` });
  });

  it("input: empty refused, one character accepted", async () => {
    expect((await speech({ input: "" })).body.error.param).toBe("/input");
    expect((await speech({ input: "a" })).status).toBe(202);
  });

  // Written out rather than read from the schema: the test holds the code to SPEC.md's number.
  it("input: 50000 characters accepted, 50001 refused", async () => {
    expect((await speech({ input: "a".repeat(50_000) })).status).toBe(202);
    const refused = await speech({ input: "a".repeat(50_001) });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "invalid_request", param: "/input" });
  });

  it("rejects an unsupported language rather than replacing it", async () => {
    const refused = await speech({ model: "vendorA-speech-2.8-turbo", language: "sv-SE" });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "unsupported_option", param: "/language" });
    expect(refused.body.error.details.candidate_failures[0]).toMatchObject({ code: "unsupported_language", received: "sv-SE" });
    const auto = await speech({ language: "sv-SE" });
    expect(auto.body.resolved_model).toBe("vendorA-speech-2.8-hd");
  });

  it("answers voice_model_incompatible for a voice the named model cannot speak", async () => {
    const refused = await speech({ voice: "en_neutral_sage", model: "vendorA-speech-2.8-turbo" });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "voice_model_incompatible", param: "/voice" });
    expect((await speech({ voice: "nobody" })).body.error).toMatchObject({ code: "voice_not_found", param: "/voice" });
  });
});
