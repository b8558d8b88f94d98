import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";

// text_to_image's prompt and negative_prompt have the service's bounds, 20000 and 2000 characters (SPEC.md gives
// none; docs/decisions.md), checked at admission: one past is 422 invalid_request at the field, nothing held.
// Issue 36: a 20,001-character prompt was accepted and billed. At the bound the service's own check passes; what
// a model makes of it is the model's published limit (a model-specific refusal, or admission).

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: false, credits: "100" });
});
afterAll(async () => h?.close());

async function create(body: Record<string, unknown>, key: string) {
  return h.request("POST", "/v1/images/generations", { idempotencyKey: key, body: { model: "auto", ...body } });
}

describe("text_to_image text bounds", () => {
  it("takes a prompt of 20000 characters and refuses 20001 at /prompt, nothing held", async () => {
    const atBound = await create({ prompt: "a".repeat(20_000) }, "bound-prompt");
    expect(atBound.body.error?.param).not.toBe("/prompt");
    const held = (await h.request("GET", "/v1/credits")).body.held_credits;
    const past = await create({ prompt: "a".repeat(20_001) }, "past-prompt");
    expect(past.status).toBe(422);
    expect(past.body.error).toMatchObject({ code: "invalid_request", param: "/prompt" });
    expect((await h.request("GET", "/v1/credits")).body.held_credits).toBe(held);
    // Characters are code points: 20000 astral characters are within the bound.
    expect((await create({ prompt: "\u{1F600}".repeat(20_000) }, "astral-prompt")).body.error?.param).not.toBe("/prompt");
  });

  it("takes a negative_prompt of 2000 characters and refuses 2001 at /negative_prompt", async () => {
    const atBound = await create({ prompt: "a lighthouse", negative_prompt: "b".repeat(2_000) }, "bound-negative");
    expect(atBound.body.error?.param).not.toBe("/negative_prompt");
    expect(atBound.body.error?.code).not.toBe("invalid_request");
    const past = await create({ prompt: "a lighthouse", negative_prompt: "b".repeat(2_001) }, "past-negative");
    expect(past.status).toBe(422);
    expect(past.body.error).toMatchObject({ code: "invalid_request", param: "/negative_prompt" });
  });

  it("shows the bounds as maxLength in the OpenAPI document", async () => {
    const document = (await h.request("GET", "/v1/openapi.json")).body;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const resolve = (node: any): any => (node?.$ref ? resolve(node.$ref.slice(2).split("/").reduce((at: any, key: string) => at[key], document)) : node);
    const requestBody = resolve(document.paths["/v1/images/generations"].post.requestBody);
    const body = resolve(requestBody.content["application/json"].schema);
    expect(body.properties.prompt.maxLength).toBe(20_000);
    expect(body.properties.negative_prompt.maxLength).toBe(2_000);
  });
});
