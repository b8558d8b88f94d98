import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCredits } from "../../core/index.js";
import { startHarness, type Harness } from "../support/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: false, credits: "100" });
});
afterAll(async () => {
  await h?.close();
});

async function balance(apiKey?: string) {
  const credits = await h.request("GET", "/v1/credits", { apiKey });
  expect(credits.status).toBe(200);
  return { available: credits.body.available_credits as string, held: credits.body.held_credits as string };
}

async function taskCount(): Promise<number> {
  const list = await h.request("GET", "/v1/tasks?limit=100");
  return list.body.data.length as number;
}

describe("POST /v1/quotes", () => {
  it("quotes the model and the hold the create then takes, to the micro-credit, and changes no balance", async () => {
    const body = { voice: "en_female_aria", input: "Quoted to the micro-credit: 漢字 too.", model: "auto" };
    const before = await balance();
    const quote = await h.request("POST", "/v1/quotes", { body: { capability: "text_to_speech", ...body } });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ object: "quote", capability: "text_to_speech", model: "auto", available_credits: before.available });
    expect(await balance()).toEqual(before);
    expect(await taskCount()).toBe(0);

    const created = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "quoted-1", body });
    expect(created.status).toBe(202);
    expect(created.body.resolved_model).toBe(quote.body.resolved_model);
    expect(created.body.model_selection_reason).toEqual(quote.body.model_selection_reason);
    const after = await balance();
    expect(after.held).toBe(quote.body.hold_credits);
    expect(parseCredits(before.available) - parseCredits(after.available)).toBe(parseCredits(quote.body.hold_credits));
  });

  it("gives the create's refusal, candidate failures and pointers included, and holds nothing", async () => {
    const body = { voice: "en_female_aria", input: "Too fast.", model: "vendorA-speech-2.8-hd", language: "xx-unsupported" };
    const before = await balance();
    const quote = await h.request("POST", "/v1/quotes", { body: { capability: "text_to_speech", ...body } });
    const created = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "refused-1", body });
    expect(quote.status).toBe(created.status);
    expect(quote.status).toBeGreaterThanOrEqual(400);
    const { request_id: _q, ...quoted } = quote.body.error;
    const { request_id: _c, ...refused } = created.body.error;
    expect(quoted).toEqual(refused);
    expect(await balance()).toEqual(before);
  });

  it("refuses a body without a capability, and an unknown capability", async () => {
    const missing = await h.request("POST", "/v1/quotes", { body: { input: "x" } });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({ code: "invalid_request", param: "/capability" });
    const unknown = await h.request("POST", "/v1/quotes", { body: { capability: "text_to_smell" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: "unsupported_capability", param: "/capability" });
  });

  it("is refused to a key without the capability's area", async () => {
    const limited = await h.newTenant("10", ["tasks"]);
    const quote = await h.request("POST", "/v1/quotes", {
      apiKey: limited.apiKey,
      body: { capability: "text_to_speech", voice: "en_female_aria", input: "x" },
    });
    expect(quote.status).toBe(403);
    expect(quote.body.error.code).toBe("forbidden");
  });
});

describe("GET /v1/tasks?idempotency_key=", () => {
  it("finds the task a key created, for the tenant that sent it only", async () => {
    const body = { voice: "en_male_atlas", input: "Find me by my key." };
    const mine = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "lookup-key-1", body });
    const found = await h.request("GET", "/v1/tasks?idempotency_key=lookup-key-1");
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ object: "list", has_more: false, next_cursor: null });
    expect(found.body.data.map((t: { task_id: string }) => t.task_id)).toEqual([mine.body.task_id]);

    const other = await h.newTenant();
    const foreign = await h.request("GET", "/v1/tasks?idempotency_key=lookup-key-1", { apiKey: other.apiKey });
    expect(foreign.body.data).toEqual([]);
    const theirs = await h.request("POST", "/v1/audio/speech", { apiKey: other.apiKey, idempotencyKey: "lookup-key-1", body });
    const theirLookup = await h.request("GET", "/v1/tasks?idempotency_key=lookup-key-1", { apiKey: other.apiKey });
    expect(theirLookup.body.data.map((t: { task_id: string }) => t.task_id)).toEqual([theirs.body.task_id]);
    const mineAgain = await h.request("GET", "/v1/tasks?idempotency_key=lookup-key-1");
    expect(mineAgain.body.data.map((t: { task_id: string }) => t.task_id)).toEqual([mine.body.task_id]);

    const unknown = await h.request("GET", "/v1/tasks?idempotency_key=never-sent");
    expect(unknown.body.data).toEqual([]);
  });

  it("refuses the key beside list filters, and an empty key", async () => {
    const mixed = await h.request("GET", "/v1/tasks?idempotency_key=lookup-key-1&status=queued");
    expect(mixed.status).toBe(422);
    expect(mixed.body.error.code).toBe("invalid_request");
    const empty = await h.request("GET", "/v1/tasks?idempotency_key=");
    expect(empty.status).toBe(422);
  });
});
