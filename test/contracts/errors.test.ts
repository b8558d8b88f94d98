import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CATALOGUE, type ErrorCode } from "../../core/index.js";
import { startHarness, type ApiResponse, type Harness } from "../support/harness.js";

// SPEC.md "Errors": the one error envelope, X-Request-Id correlation, structural validation with JSON Pointer
// params, and the public error catalogue itself.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

let keyCounter = 0;
function speech(body: unknown, extra: { headers?: Record<string, string> } = {}): Promise<ApiResponse> {
  return h.request("POST", "/v1/audio/speech", { body, idempotencyKey: `errors-${++keyCounter}`, ...extra });
}

const VALID = { voice: "en_female_aria", input: "hi" };

function expectEnvelope(response: ApiResponse, status: number, code: ErrorCode): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const error = response.body?.error;
  expect(error, "error envelope").toBeTypeOf("object");
  expect(error.code).toBe(code);
  expect(error.type).toBe(ERROR_CATALOGUE[code].type);
  expect(error.type).toBeTypeOf("string");
  expect(error.message).toBeTypeOf("string");
  expect(error.message.length).toBeGreaterThan(0);
  expect(error.retryable).toBe(ERROR_CATALOGUE[code].retryable);
  expect(error.request_id).toBeTypeOf("string");
  expect(error.request_id).toBe(response.headers.get("x-request-id"));
}

function expectInvalid(response: ApiResponse, param: string): void {
  expectEnvelope(response, 422, "invalid_request");
  expect(response.body.error.param).toBe(param);
  const errors = response.body.error.details?.errors;
  expect(Array.isArray(errors)).toBe(true);
  expect(errors.length).toBeGreaterThan(0);
  for (const e of errors) {
    expect(Array.isArray(e.loc)).toBe(true);
    expect(e.reason).toBeTypeOf("string");
  }
}

describe("X-Request-Id", () => {
  it("is on every response: 200, 202, 401, 404, 422", async () => {
    const responses = [
      await h.request("GET", "/v1/credits"),
      await speech(VALID),
      await h.request("GET", "/v1/credits", { apiKey: null }),
      await h.request("GET", "/v1/nothing-here"),
      await speech({ voice: "en_female_aria" }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 202, 401, 404, 422]);
    const ids = responses.map((r) => r.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^\S{8,}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("echoes a client-sent id in the header and in error.request_id", async () => {
    const headers = { "x-request-id": "my-trace-123" };
    const ok = await h.request("GET", "/v1/credits", { headers });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toBe("my-trace-123");
    const accepted = await speech(VALID, { headers });
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get("x-request-id")).toBe("my-trace-123");
    const refused = await h.request("GET", "/v1/credits", { apiKey: null, headers });
    expectEnvelope(refused, 401, "unauthorized");
    expect(refused.headers.get("x-request-id")).toBe("my-trace-123");
    expect(refused.body.error.request_id).toBe("my-trace-123");
    const invalid = await speech({ voice: "en_female_aria" }, { headers });
    expect(invalid.body.error.request_id).toBe("my-trace-123");
  });

  it("generates one when none is sent, equal to error.request_id", async () => {
    const refused = await h.request("GET", "/v1/tasks/task_00000000000000000000000000");
    expectEnvelope(refused, 404, "task_not_found");
    const id = refused.headers.get("x-request-id");
    expect(id).toBeTruthy();
    expect(id).not.toBe("my-trace-123");
    expect(refused.body.error.request_id).toBe(id);
  });
});

describe("error envelope", () => {
  it("an unknown route → 404 not_found in the envelope", async () => {
    for (const [method, url] of [
      ["GET", "/v1/nothing-here"],
      ["POST", "/v1/audio/nothing"],
      ["GET", "/nothing-here"],
      ["GET", "/console/nothing-here.js"],
    ] as const) {
      const response = await h.request(method, url);
      expectEnvelope(response, 404, "not_found");
      expect(Object.keys(response.body)).toEqual(["error"]);
    }
  });

  it("malformed JSON → 422 invalid_request", async () => {
    const response = await h.request("POST", "/v1/audio/speech", { rawBody: '{"voice": ', idempotencyKey: "errors-malformed" });
    expectEnvelope(response, 422, "invalid_request");
    expect(response.body.error.details.errors.length).toBeGreaterThan(0);
  });

  it("a JSON array body → 422 invalid_request", async () => {
    const response = await speech([VALID]);
    expectEnvelope(response, 422, "invalid_request");
    expect(response.body.error.details.errors.length).toBeGreaterThan(0);
  });

  it("a body that is not JSON (text/plain) → 422 invalid_request", async () => {
    const response = await h.request("POST", "/v1/audio/speech", {
      rawBody: JSON.stringify(VALID),
      headers: { "content-type": "text/plain" },
      idempotencyKey: "errors-text-plain",
    });
    expectEnvelope(response, 422, "invalid_request");
  });
});

describe("structural validation of POST /v1/audio/speech", () => {
  it("missing input → param /input", async () => {
    const response = await speech({ voice: "en_female_aria" });
    expectInvalid(response, "/input");
    expect(response.body.error.details.errors.map((e: { loc: unknown }) => e.loc)).toEqual([["input"]]);
  });

  it("missing voice and input → both listed, param names the first", async () => {
    const response = await speech({ format: "mp3" });
    expectEnvelope(response, 422, "invalid_request");
    const errors = response.body.error.details.errors as { loc: (string | number)[] }[];
    expect(errors.map((e) => e.loc).sort()).toEqual([["input"], ["voice"]]);
    expect(["/voice", "/input"]).toContain(response.body.error.param);
    expect(response.body.error.param).toBe(`/${errors[0]!.loc.join("/")}`);
  });

  it("speed 3 → param /speed", async () => {
    const response = await speech({ ...VALID, speed: 3 });
    expectInvalid(response, "/speed");
    expect(response.body.error.details.errors.map((e: { loc: unknown }) => e.loc)).toEqual([["speed"]]);
  });

  it("input of 50001 characters → /input; exactly 50000 is accepted", async () => {
    expectInvalid(await speech({ ...VALID, input: "a".repeat(50_001) }), "/input");
    const accepted = await speech({ ...VALID, input: "a".repeat(50_000) });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    expect(accepted.body.status).toBe("queued");
  });

  it("a too-long metadata key is named with RFC 6901 escaping (~1 for /, ~0 for ~)", async () => {
    const key = "a/b~c~1".padEnd(65, "x");
    expect(key).toHaveLength(65);
    const response = await speech({ ...VALID, metadata: { [key]: "v" } });
    const escaped = key.replace(/~/g, "~0").replace(/\//g, "~1");
    expect(escaped.startsWith("a~1b~0c~01x")).toBe(true);
    expectInvalid(response, `/metadata/${escaped}`);
    expect(response.body.error.details.errors[0].loc).toEqual(["metadata", key]);
    // 64 characters is within the limit.
    expect((await speech({ ...VALID, metadata: { [key.slice(0, 64)]: "v" } })).status).toBe(202);
  });
});

describe("error catalogue", () => {
  const spec = readFileSync(path.join(repoRoot, "docs/SPEC.md"), "utf8");

  function specTable(): Map<string, { http: number; retryable: boolean }> {
    const start = spec.indexOf("\n## Errors\n");
    expect(start).toBeGreaterThan(0);
    const next = spec.indexOf("\n## ", start + 1);
    const section = spec.slice(start, next === -1 ? undefined : next);
    const rows = new Map<string, { http: number; retryable: boolean }>();
    for (const line of section.split("\n")) {
      const match = /^\|\s*([a-z_]+)\s*\|\s*(\d{3})\s*\|\s*(yes|no)\s*\|.*\|\s*$/.exec(line);
      if (!match) continue;
      expect(rows.has(match[1]!), `duplicate row ${match[1]}`).toBe(false);
      rows.set(match[1]!, { http: Number(match[2]), retryable: match[3] === "yes" });
    }
    return rows;
  }

  it("has exactly the 45 codes of docs/SPEC.md with the same HTTP status and retryability", () => {
    const table = specTable();
    expect(table.size).toBe(45);
    expect(Object.keys(ERROR_CATALOGUE)).toHaveLength(45);
    expect(Object.keys(ERROR_CATALOGUE).sort()).toEqual([...table.keys()].sort());
    for (const [code, row] of table) {
      const entry = ERROR_CATALOGUE[code as ErrorCode];
      expect({ code, http: entry.http, retryable: entry.retryable }).toEqual({ code, ...row });
    }
  });

  it("docs/SPEC.md is a verbatim copy of ../shared/SPEC.md (when that file exists)", () => {
    const shared = path.resolve(repoRoot, "../shared/SPEC.md");
    if (existsSync(shared)) {
      expect(spec === readFileSync(shared, "utf8"), "docs/SPEC.md differs from ../shared/SPEC.md").toBe(true);
    }
  });
});
