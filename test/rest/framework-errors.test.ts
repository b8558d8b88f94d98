import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CATALOGUE } from "../../core/index.js";
import { balance, countRows, startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { rawExchange } from "../support/raw-exchange.js";

// Issue 13, item 3: refusals made by the HTTP layer (Node's parser, Fastify's router and body parsing) answered
// 500 (a path parameter over 100 characters), bare 431/400 bodies, or carried no X-Request-Id. Each is now SPEC.md's
// envelope with a catalogued code and a request id, and refuses before anything is created or held.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

function expectEnvelope(response: { body: ApiResponse["body"] }, code: keyof typeof ERROR_CATALOGUE, requestId: string | null | undefined) {
  expect(response.body?.error?.code, JSON.stringify(response.body)).toBe(code);
  expect(response.body.error).toMatchObject({ type: ERROR_CATALOGUE[code].type, retryable: ERROR_CATALOGUE[code].retryable });
  expect(requestId).toMatch(/^req_[0-9a-f]{24}$/);
  expect(response.body.error.request_id).toBe(requestId);
}

describe("path and URL limits", () => {
  it("a path parameter over 100 characters is 422 naming the limit, with or without a key", async () => {
    for (const apiKey of [undefined, null]) {
      const response = await h.request("GET", `/v1/tasks/${"a".repeat(101)}`, { apiKey });
      expect(response.status).toBe(422);
      expectEnvelope(response, "invalid_request", response.headers.get("x-request-id"));
      expect(response.body.error.details.errors).toEqual([{ loc: ["path"], reason: "has a parameter longer than 100 characters" }]);
    }
    expect((await h.request("GET", `/v1/tasks/${"a".repeat(100)}`)).body.error.code).toBe("task_not_found");
  });

  it("a path that is not UTF-8 carries a request id too", async () => {
    const response = await h.request("GET", "/v1/voices/%FF");
    expect(response.status).toBe(422);
    expectEnvelope(response, "invalid_request", response.headers.get("x-request-id"));
  });

  it("an unknown path of any length is 404 not_found that echoes at most 200 characters of it", async () => {
    const response = await h.request("GET", `/v1/${"x".repeat(8000)}`);
    expect(response.status).toBe(404);
    expectEnvelope(response, "not_found", response.headers.get("x-request-id"));
    expect(response.body.error.message.length).toBeLessThan(300);
  });

  it("a path that exists under other methods is 404 not_found saying which methods it takes", async () => {
    const response = await h.request("DELETE", "/v1/tasks");
    expect(response.status).toBe(404);
    expectEnvelope(response, "not_found", response.headers.get("x-request-id"));
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(response.body.error.details).toEqual({ allowed_methods: ["GET", "HEAD"] });
    const cancel = await h.request("GET", "/v1/tasks/task_x/cancel");
    expect(cancel.headers.get("allow")).toBe("POST");
    expect((await h.request("GET", "/v1/nothing")).headers.get("allow")).toBeNull();
  });
});

describe("refusals of Node's HTTP parser", () => {
  it("headers over 16 KB are 431 in the envelope, with a request id", async () => {
    const response = await rawExchange(h.baseUrl, `GET /v1/tasks HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(17_000)}\r\n\r\n`);
    expect(response.status).toBe(431);
    expectEnvelope(response, "invalid_request", response.headers["x-request-id"]);
    expect(response.body.error.details.errors).toEqual([{ loc: ["header"], reason: "exceed 16384 bytes in all" }]);
  });

  it("a request that is not HTTP/1.1 it can read is 400 in the envelope", async () => {
    for (const request of ["FOO\u0001 / HTTP/1.1\r\n\r\n", "POST /v1/tasks HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello"]) {
      const response = await rawExchange(h.baseUrl, request);
      expect(response.status).toBe(400);
      expectEnvelope(response, "invalid_request", response.headers["x-request-id"]);
    }
  });
});

describe("body encodings", () => {
  const speech = (options: { rawBody: string; headers?: Record<string, string> }) =>
    h.request("POST", "/v1/audio/speech", { idempotencyKey: `enc-${Math.random()}`, ...options });

  it("a compressed body, a charset other than UTF-8 and bytes that are not UTF-8 are 422 naming why, and nothing is held", async () => {
    const before = { credits: await balance(h), tasks: await countRows(h, sql`select count(*)::int as n from tasks`) };
    const valid = JSON.stringify({ voice: "en_female_aria", input: "Hi." });
    const gzip = await speech({ rawBody: valid, headers: { "content-type": "application/json", "content-encoding": "gzip" } });
    expect(gzip.status).toBe(422);
    expect(gzip.body.error.details.errors).toEqual([{ loc: ["header", "Content-Encoding"], reason: "must be absent or identity" }]);
    const latin1 = await speech({ rawBody: valid, headers: { "content-type": "application/json; charset=iso-8859-1" } });
    expect(latin1.status).toBe(422);
    expect(latin1.body.error.details.errors).toEqual([{ loc: ["header", "Content-Type"], reason: "charset must be utf-8" }]);
    const { hostname, port } = new URL(h.baseUrl);
    const bytes = Buffer.concat([Buffer.from('{"voice":"en_female_aria","input":"'), Buffer.from([0xff, 0xfe, 0xc0, 0x80]), Buffer.from('"}')]);
    const notUtf8 = await rawExchange(h.baseUrl, 
      Buffer.concat([
        Buffer.from(
          `POST /v1/audio/speech HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${h.apiKey}\r\nIdempotency-Key: enc-bytes\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`,
        ),
        bytes,
      ]),
    );
    expect(notUtf8.status).toBe(422);
    expectEnvelope(notUtf8, "invalid_request", notUtf8.headers["x-request-id"]);
    expect(notUtf8.body.error.details.errors[0]).toMatchObject({ loc: [], reason: "is not UTF-8" });
    expect({ credits: await balance(h), tasks: await countRows(h, sql`select count(*)::int as n from tasks`) }).toEqual(before);
  });

  it("charset=utf-8 is accepted", async () => {
    const response = await speech({ rawBody: JSON.stringify({ voice: "en_female_aria", input: "Hi." }), headers: { "content-type": "application/json; charset=UTF-8" } });
    expect(response.status).toBe(202);
  });
});

describe("X-Request-Id", () => {
  it("is echoed when it is 1 to 128 token characters, and otherwise replaced by the server's own", async () => {
    const kept = "a".repeat(128);
    expect((await h.request("GET", "/v1/credits", { headers: { "x-request-id": kept } })).headers.get("x-request-id")).toBe(kept);
    for (const given of ["a".repeat(129), "has space", "semi;colon", "<script>"]) {
      const response = await h.request("GET", "/v1/credits", { headers: { "x-request-id": given } });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
    }
  });
});
