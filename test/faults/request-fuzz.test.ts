import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITIES, DOCUMENTED_ROUTES, ERROR_CATALOGUE } from "../../core/index.js";
import { balance, startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { rawExchange } from "../support/raw-exchange.js";

// Random valid and invalid requests over every endpoint (seeded, bounded): no answer is a 5xx, every refusal
// is SPEC.md's error envelope with a catalogued code, and a refused request leaves the balance as it was.
const SEED = 20_260_707;
const RUNS_PER_CAPABILITY = 20;
const RUNS_PER_ROUTE = 6;

let h: Harness;
let existingTaskId: string;
beforeAll(async () => {
  h = await startHarness({ credits: "100000" });
  const created = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "fuzz-seed", body: { voice: "en_female_aria", input: "Hi." } });
  existingTaskId = created.body.task_id;
});
afterAll(async () => h?.close());

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const BOUNDARY_NUMBERS = [0, -0, -1, 1, 0.5, -0.5, 1e-9, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1e308];
const ODD_STRINGS = ["", " ", "\u0000", "\uFFFF", "\uD800", "🙂".repeat(3), "x".repeat(100_001), "../../etc/passwd", "' or 1=1 --", "%00", "auto"];

const oddValue = fc.constantFrom<Json>(...BOUNDARY_NUMBERS, ...ODD_STRINGS);
const anyJson: fc.Arbitrary<Json> = fc.oneof(fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>, oddValue);
// Path segments and query values as they travel, percent-encoded; some escapes are not UTF-8 or decode to NUL.
const ODD_ESCAPES = ["%00", "%FF", "%", "%C0%80", "%ED%A0%80", "%2F", ".."];
const urlText = fc.oneof(fc.string({ maxLength: 40 }).map(encodeURIComponent), fc.constantFrom(...ODD_ESCAPES));

// Every path into a JSON value, objects and arrays alike, the value itself being [].
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const here = [prefix];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => pathsOf(item, [...prefix, i]))];
  if (value !== null && typeof value === "object") return [...here, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
  return here;
}

function withChange(value: Json, path: (string | number)[], change: (old: Json | undefined) => Json | undefined): Json | undefined {
  if (path.length === 0) return change(value);
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy: Json = Array.isArray(value) ? [...value] : { ...(value as Record<string, Json>) };
  const container = copy as Record<string | number, Json>;
  const next = withChange(container[head] as Json, rest, change);
  if (next === undefined) {
    if (Array.isArray(copy)) copy.splice(head as number, 1);
    else delete container[head];
  } else container[head] = next;
  return copy;
}

// A body near a valid one: the example as is, or with one place dropped, retyped, set to a boundary number or an
// odd string, or given an unknown field; or not an object at all.
function bodiesNear(example: Json): fc.Arbitrary<Json | undefined> {
  const paths = pathsOf(example).filter((path) => path.length > 0);
  const place = fc.constantFrom(...paths);
  return fc.oneof(
    fc.constant(example),
    place.map((path) => withChange(example, path, () => undefined)),
    fc.tuple(place, anyJson).map(([path, value]) => withChange(example, path, () => value)),
    fc.tuple(place, oddValue).map(([path, value]) => withChange(example, path, () => value)),
    fc.tuple(place, fc.string({ maxLength: 12 }), anyJson).map(([path, name, value]) =>
      withChange(example, path.slice(0, -1), (parent) =>
        parent !== null && typeof parent === "object" && !Array.isArray(parent) ? { ...parent, [`x_${name}`]: value } : parent ?? null,
      ),
    ),
    fc.constantFrom<Json>([], "body", 42, null, [example]),
  );
}

async function send(method: string, path: string, body: Json | undefined, rawBody?: string): Promise<ApiResponse> {
  return h.request(method, path, {
    idempotencyKey: `fuzz-${Math.random().toString(36).slice(2)}`,
    ...(rawBody !== undefined ? { rawBody } : body !== undefined ? { body } : {}),
  });
}

async function expectNoHarm(method: string, path: string, body: Json | undefined, rawBody?: string): Promise<void> {
  const before = await balance(h);
  const response = await send(method, path, body, rawBody);
  const shown = `${method} ${path} ${rawBody ?? JSON.stringify(body)?.slice(0, 300)} → ${response.status} ${JSON.stringify(response.body)?.slice(0, 300)}`;
  expect(response.status, shown).toBeLessThan(500);
  if (response.status >= 400) {
    expect(Object.keys(ERROR_CATALOGUE), shown).toContain(response.body?.error?.code);
    expect(await balance(h), shown).toEqual(before);
  }
}

describe("random bodies on every task-creating endpoint", () => {
  it.each(CAPABILITIES.map((capability) => [capability.id, capability] as const))("%s", async (_id, capability) => {
    await fc.assert(
      fc.asyncProperty(bodiesNear(capability.example as Json), (body) => expectNoHarm("POST", capability.path, body)),
      { seed: SEED, numRuns: RUNS_PER_CAPABILITY },
    );
  });

  it("malformed JSON, another content type or no body", async () => {
    const path = CAPABILITIES[0]?.path as string;
    for (const rawBody of ["{", '{"voice": }', "\u0000", "[1,2", "null", ""]) await expectNoHarm("POST", path, undefined, rawBody);
    const before = await balance(h);
    const text = await h.request("POST", path, { idempotencyKey: "fuzz-text", rawBody: "voice=x", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(422);
    expect(await balance(h)).toEqual(before);
  });
});

describe("random path parameters, queries and bodies on every other endpoint", () => {
  const segment = fc.oneof(fc.constantFrom("task_unknown", "voice_x", "csk_x", "art_x", "en_female_aria", "auto"), urlText);
  const query = fc.dictionary(
    fc.constantFrom("limit", "cursor", "status", "capability", "expires", "signature", "x"),
    fc.oneof(urlText, fc.constantFrom("0", "-1", "101", "1e9", "NaN")),
    { maxKeys: 3 },
  );

  // Probes and documents take no input; /readyz answers 503 by design while no worker runs.
  const routes = DOCUMENTED_ROUTES.filter((route) => !["/healthz", "/readyz", "/metrics", "/v1/openapi.json", "/v1/docs"].includes(route.path));
  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))("%s", async (_name, route) => {
    const bodies: fc.Arbitrary<Json | undefined> =
      route.method === "POST" ? fc.oneof(bodiesNear((route.requestExample ?? { reason: "fuzz" }) as Json), fc.constant(undefined)) : fc.constant(undefined);
    await fc.assert(
      fc.asyncProperty(segment, fc.boolean(), query, bodies, async (value, useExistingTask, params, body) => {
        const path = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => (name === "task_id" && useExistingTask ? existingTaskId : value));
        const search = Object.entries(params)
          .map(([name, text]) => `${name}=${text}`)
          .join("&");
        await expectNoHarm(route.method, search ? `${path}?${search}` : path, body);
      }),
      { seed: SEED, numRuns: RUNS_PER_ROUTE },
    );
  });
});

// Issue 13: the shape, the encoding and the size of a request, as well as its values. Every answer is below 500
// and in the envelope with a request id, and a refused request creates no task and holds no credit.
async function tasksAndBalance() {
  const rows = await h.core.db.execute<{ n: number }>(sql`select count(*)::int as n from tasks`);
  return { tasks: rows[0]?.n, balance: await balance(h) };
}

function expectEnvelope(status: number, body: ApiResponse["body"], requestId: string | null | undefined, shown: string): void {
  expect(status, shown).toBeLessThan(500);
  if (status < 400) return;
  expect(Object.keys(ERROR_CATALOGUE), shown).toContain(body?.error?.code);
  expect(body.error.request_id, shown).toBe(requestId);
}

describe("hostile shapes, encodings and sizes", () => {
  const speechPath = "/v1/audio/speech";

  it("nesting of any depth, anywhere in a body", async () => {
    const nest = fc.record({ depth: fc.integer({ min: 1, max: 60_000 }), objects: fc.boolean(), at: fc.constantFrom("metadata", "input", "x", "voice") });
    await fc.assert(
      fc.asyncProperty(nest, async ({ depth, objects, at }) => {
        const [open, close] = objects ? ['{"k":', "}"] : ["[", "]"];
        const rawBody = `{"voice":"en_female_aria","input":"Hi.","${at}":${open.repeat(depth)}1${close.repeat(depth)}}`;
        const before = await tasksAndBalance();
        const response = await send("POST", speechPath, undefined, rawBody);
        const shown = `${objects ? "objects" : "arrays"} ${depth} deep at ${at} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
        expectEnvelope(response.status, response.body, response.headers.get("x-request-id"), shown);
        expect(response.status, shown).toBe(422);
        expect(await tasksAndBalance(), shown).toEqual(before);
      }),
      { seed: SEED, numRuns: 25 },
    );
  });

  it("bodies of random bytes, charsets and content codings", async () => {
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.constantFrom(Buffer.from('{"voice":"en_female_aria","input":"\xff\xfe"}', "latin1"), Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])),
    );
    const contentType = fc.constantFrom("application/json", "application/json; charset=utf-8", "application/json; charset=utf-16", "text/plain", "application/x-www-form-urlencoded", "");
    const coding = fc.constantFrom(undefined, "gzip", "identity", "br, gzip");
    await fc.assert(
      fc.asyncProperty(body, contentType, coding, async (bytes, type, encoding) => {
        const before = await tasksAndBalance();
        const headers: Record<string, string> = { authorization: `Bearer ${h.apiKey}`, "idempotency-key": `bytes-${Math.random()}` };
        if (type) headers["content-type"] = type;
        if (encoding) headers["content-encoding"] = encoding;
        const response = await fetch(`${h.baseUrl}${speechPath}`, { method: "POST", headers, body: bytes });
        const text = await response.text();
        const shown = `${type} ${encoding} ${Buffer.from(bytes).toString("hex").slice(0, 80)} → ${response.status} ${text.slice(0, 200)}`;
        expectEnvelope(response.status, JSON.parse(text), response.headers.get("x-request-id"), shown);
        if (response.status >= 400) expect(await tasksAndBalance(), shown).toEqual(before);
      }),
      { seed: SEED, numRuns: 40 },
    );
  });

  it("path segments of any length and content", async () => {
    const segment = fc.oneof(
      fc.integer({ min: 0, max: 12_000 }).map((n) => "a".repeat(n)),
      fc.string({ unit: "binary", maxLength: 300 }).map(encodeURIComponent),
      fc.constantFrom("%ZZ", "%", "%C0%AF", "..%2F..%2F", "%00", "task_%FF"),
    );
    const route = fc.constantFrom("/v1/tasks/", "/v1/voices/", "/v1/catalog/models/", "/v1/callback-signing-keys/", "/v1/tasks/{}/cancel", "/v1/");
    const method = fc.constantFrom("GET", "POST", "DELETE", "PUT");
    await fc.assert(
      fc.asyncProperty(route, segment, method, async (prefix, value, verb) => {
        const path = prefix.includes("{}") ? prefix.replace("{}", value) : `${prefix}${value}`;
        const response = await rawExchange(
          h.baseUrl,
          Buffer.from(`${verb} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.apiKey}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`),
        );
        expectEnvelope(response.status, response.body, response.headers["x-request-id"], `${verb} ${path.slice(0, 120)} (${path.length}) → ${response.status}`);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it("headers of any size and number", async () => {
    const header = fc.record({
      count: fc.integer({ min: 1, max: 200 }),
      length: fc.integer({ min: 0, max: 40_000 }),
      name: fc.constantFrom("x-filler", "x-request-id", "idempotency-key", "authorization", "content-type"),
    });
    await fc.assert(
      fc.asyncProperty(header, async ({ count, length, name }) => {
        const before = await tasksAndBalance();
        const value = "v".repeat(Math.floor(length / count));
        const extra = Array.from({ length: count }, (_, i) => `${name}${name === "x-filler" ? i : ""}: ${value}\r\n`).join("");
        const body = JSON.stringify({ voice: "en_female_aria", input: "Hi." });
        const response = await rawExchange(
          h.baseUrl,
          Buffer.from(
            `POST ${speechPath} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.apiKey}\r\nIdempotency-Key: hdr-${Math.random()}\r\n` +
              `Content-Type: application/json\r\n${extra}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
          ),
        );
        const shown = `${count} × ${name} of ${value.length} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
        expectEnvelope(response.status, response.body, response.headers["x-request-id"], shown);
        if (response.status >= 400) expect(await tasksAndBalance(), shown).toEqual(before);
      }),
      { seed: SEED, numRuns: 30 },
    );
  });
});
