import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";

// Issue 36: every text field of every create has a bound, checked at admission. Beside the SPEC.md bounds (prompts,
// speech input, display name) and the image prompts' (image-text-bounds.test.ts), these were unbounded: `model`
// (echoed in unsupported_model's details), vendorG's negative tags (the model's 200 is checked at selection), and a
// media input's HTTPS URL. One past the
// bound is 422 invalid_request at the field, nothing held; at the bound the field is not what refuses.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: false, credits: "100" });
});
afterAll(async () => h?.close());

async function create(path: string, body: Record<string, unknown>, key: string) {
  return h.request("POST", path, { idempotencyKey: key, body });
}

async function held(): Promise<string> {
  return (await h.request("GET", "/v1/credits")).body.held_credits;
}

describe("create text bounds", () => {
  it("refuses a model of 129 characters at /model; 128 reaches selection (unsupported_model)", async () => {
    const before = await held();
    const atBound = await create("/v1/music/text-to-music", { model: "m".repeat(128), prompt: "calm piano" }, "model-128");
    expect(atBound.status).toBe(400);
    expect(atBound.body.error).toMatchObject({ code: "unsupported_model", param: "/model" });
    const past = await create("/v1/images/generations", { model: "m".repeat(129), prompt: "a lighthouse" }, "model-129");
    expect(past.status).toBe(422);
    expect(past.body.error).toMatchObject({ code: "invalid_request", param: "/model" });
    expect(await held()).toBe(before);
  });

  it("refuses vendorG negative tags of 1001 characters as invalid; 1000 meet the model's own limit (200)", async () => {
    const body = (tags: string) => ({ model: "vendorG-6", prompt: "calm piano", model_options: { vendorG: { negative_tags: tags } } });
    const atBound = await create("/v1/music/text-to-music", body("t".repeat(1000)), "tags-1000");
    expect(atBound.body.error).toMatchObject({ code: "unsupported_option", param: "/model_options/vendorG/negative_tags" });
    expect(atBound.body.error.details.candidate_failures[0].code).toBe("unsupported_negative_tags");
    const before = await held();
    const past = await create("/v1/music/text-to-music", body("t".repeat(1001)), "tags-1001");
    expect(past.status).toBe(422);
    expect(past.body.error).toMatchObject({ code: "invalid_request", param: "/model_options/vendorG/negative_tags" });
    expect(await held()).toBe(before);
  });

  it("refuses a media URL of 8193 characters at /video/url; 8192 are admitted", async () => {
    const url = (length: number) => {
      const head = "https://media.example/v.mp4?pad=";
      return head + "x".repeat(length - head.length);
    };
    const body = (length: number) => ({ model: "auto", prompt: "What happens?", video: { type: "url", url: url(length) } });
    const atBound = await create("/v1/videos/responses", body(8192), "url-8192");
    expect(atBound.status).toBe(202);
    const past = await create("/v1/videos/responses", body(8193), "url-8193");
    expect(past.status).toBe(422);
    expect(past.body.error).toMatchObject({ code: "invalid_request", param: "/video/url" });
  });
});
