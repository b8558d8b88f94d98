import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSON_MAX_DEPTH, JSON_MAX_ITEMS, JSON_MAX_KEY_LENGTH } from "../../core/index.js";
import { balance, countRows, startHarness, type Harness } from "../support/harness.js";

// Issue 13, items 1 and 2: JSON nested thousands deep overflowed the recursive text check (a 500, retryable, on
// every JSON endpoint and in MCP tool arguments: argument-shape.test.ts), and a data URI with a bad percent-escape
// threw an uncaught URIError. Each is now a 422 in SPEC.md's envelope at the offending place, and nothing is
// created or held.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const speech = (extra: Record<string, unknown>) => ({ voice: "en_female_aria", input: "Hi.", ...extra });
const tasks = () => countRows(h, sql`select count(*)::int as n from tasks`);

function nestedArrays(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

describe("the shape of a JSON body", () => {
  it("nested deeper than the bound is 422 at the place it goes too deep, however deep", async () => {
    const before = { credits: await balance(h), tasks: await tasks() };
    for (const depth of [JSON_MAX_DEPTH, 6_000, 500_000]) {
      const response = await h.request("POST", "/v1/audio/speech", {
        idempotencyKey: `deep-${depth}`,
        rawBody: `{"voice":"en_female_aria","input":"Hi.","metadata":{"k":${nestedArrays(depth)}}}`,
      });
      expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(422);
      expect(response.body.error).toMatchObject({ code: "invalid_request", retryable: false });
      expect(response.body.error.message).toContain(`deeper than ${JSON_MAX_DEPTH} levels`);
      // The body is level 1, metadata level 2 and "k" level 3: the first level too many sits 30 arrays below "k".
      expect(response.body.error.param).toBe(`/metadata/k${"/0".repeat(JSON_MAX_DEPTH - 2)}`);
      expect(response.headers.get("x-request-id")).toBeTruthy();
    }
    expect({ credits: await balance(h), tasks: await tasks() }).toEqual(before);
  });

  it("within the bound is judged by the request's own rules", async () => {
    const response = await h.request("POST", "/v1/audio/speech", {
      idempotencyKey: "deep-ok",
      rawBody: `{"voice":"en_female_aria","input":"Hi.","metadata":{"k":${nestedArrays(JSON_MAX_DEPTH - 2)}}}`,
    });
    expect(response.status).toBe(422);
    expect(response.body.error.param).toBe("/metadata/k");
    expect(response.body.error.message).not.toContain("deeper");
  });

  it("with too many items or an overlong member name is 422 naming the bound", async () => {
    const wide = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "wide", body: speech({ x: new Array(JSON_MAX_ITEMS + 1).fill(0) }) });
    expect(wide.status).toBe(422);
    expect(wide.body.error).toMatchObject({ code: "invalid_request", param: "" });
    expect(wide.body.error.message).toContain(`more than ${JSON_MAX_ITEMS}`);
    const longKey = await h.request("POST", "/v1/audio/speech", {
      idempotencyKey: "long-key",
      body: speech({ metadata: { ["k".repeat(JSON_MAX_KEY_LENGTH + 1)]: "v" } }),
    });
    expect(longKey.status).toBe(422);
    expect(longKey.body.error).toMatchObject({ code: "invalid_request", param: "/metadata" });
    expect(longKey.body.error.message).toContain(`longer than ${JSON_MAX_KEY_LENGTH} characters`);
    // The refusal does not echo the member name back.
    expect(JSON.stringify(longKey.body).length).toBeLessThan(2_000);
  });

  it("on a route that is not a task (signing keys) is refused alike", async () => {
    const response = await h.request("POST", "/v1/callback-signing-keys", { rawBody: `{"name":${nestedArrays(20_000)}}` });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe("invalid_request");
  });
});

describe("a data URI whose percent-escapes are not UTF-8", () => {
  it("is 422 invalid_media at its field", async () => {
    const before = { credits: await balance(h), tasks: await tasks() };
    for (const uri of ["data:image/png,%ZZ", "data:image/png,%FF%FE", "data:image/png,%"]) {
      const response = await h.request("POST", "/v1/images/responses", {
        idempotencyKey: `bad-uri-${uri}`,
        body: { model: "auto", prompt: "What is it?", images: [uri] },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      expect(response.body.error).toMatchObject({ code: "invalid_media", param: "/images/0", retryable: false });
    }
    expect({ credits: await balance(h), tasks: await tasks() }).toEqual(before);
  });
});
