import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { z } from "zod";
import { DEFAULT_VENDOR_IDS } from "../../core/catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../core/config.js";
import { startEmulator, type RunningEmulator } from "../../emulator/server.js";

// What the vendor contract tests share: the kept copies of the vendors' references (docs/providers/reference),
// a real HTTP hop in front of the vendor (the emulator, or fixed answers) that keeps each request it passes, and
// direct calls to the emulator.

export function loadReference<T>(fileName: string): T {
  return JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../docs/providers/reference", fileName), "utf8")) as T;
}

export function schemaOf(part: object): z.ZodType {
  return z.fromJSONSchema(part as z.core.JSONSchema.JSONSchema);
}

// A reference copy's own examples, each against the part of the reference it illustrates.
export function expectExamplesToParse(examples: readonly (readonly [z.ZodType, unknown])[]): void {
  for (const [part, example] of examples) expect(part.safeParse(example).success).toBe(true);
}

// A reference of one request and its response, as vendorA's copies are kept.
export interface ExchangeReference {
  request: z.ZodType;
  response: z.ZodType;
  examples: { request?: Record<string, unknown>; response?: Record<string, unknown> };
}

export function loadExchangeReference(fileName: string): ExchangeReference {
  const copy = loadReference<{ request: object; response: object; examples?: ExchangeReference["examples"] }>(fileName);
  return { request: schemaOf(copy.request), response: schemaOf(copy.response), examples: copy.examples ?? {} };
}

export interface RecordedCall {
  method: string;
  // The path with its query, as the vendor received it.
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  // The body as JSON, or undefined when it was empty or a multipart upload.
  body: unknown;
  // What the vendor answered, as JSON, when the call was forwarded.
  answer?: unknown;
}

export interface Recorder {
  url: string;
  requests: RecordedCall[];
  // The JSON body of each call that had one, in order.
  bodies: unknown[];
  // The path of each call without its query, in order.
  paths: string[];
  close(): Promise<void>;
}

export type Answer = (call: RecordedCall, request: IncomingMessage, reply: ServerResponse) => Promise<void>;

export interface RecorderOptions {
  // Served at /pictures/… as the service's signed artifact URLs would serve it; such reads are not recorded.
  picture?: Buffer;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function jsonBody(raw: Buffer, headers: IncomingHttpHeaders): unknown {
  if (raw.length === 0 || (headers["content-type"] ?? "").startsWith("multipart/")) return undefined;
  return JSON.parse(raw.toString("utf8")) as unknown;
}

// A stand-in vendor answering each call as `answer` says, keeping each call.
export async function startRecorder(answer: Answer, options: RecorderOptions = {}): Promise<Recorder> {
  const requests: RecordedCall[] = [];
  const bodies: unknown[] = [];
  const paths: string[] = [];
  const server = createServer((request, reply) => {
    void readBody(request).then(async (raw) => {
      const url = request.url ?? "";
      if (options.picture && url.startsWith("/pictures/")) return void reply.writeHead(200, { "content-type": "image/png" }).end(options.picture);
      const call: RecordedCall = { method: request.method ?? "", path: url, headers: request.headers, raw, body: jsonBody(raw, request.headers) };
      requests.push(call);
      paths.push(url.split("?")[0] ?? "");
      if (call.body !== undefined) bodies.push(call.body);
      await answer(call, request, reply);
    });
  });
  const url = await listen(server);
  return { url, requests, bodies, paths, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// Passes each call on to `target` (the emulator) with the named request headers, and its answer back.
export function forwardTo(target: string, headerNames: string[]): Answer {
  return async (call, request, reply) => {
    const headers: Record<string, string> = {};
    for (const name of headerNames) headers[name] = String(request.headers[name] ?? "");
    if (call.raw.length > 0) headers["content-type"] = request.headers["content-type"] ?? "application/json";
    const answered = await fetch(`${target}${call.path}`, {
      method: call.method,
      headers,
      ...(call.raw.length > 0 ? { body: call.raw } : {}),
    });
    const text = await answered.text();
    call.answer = text === "" ? undefined : (JSON.parse(text) as unknown);
    reply.writeHead(answered.status, { "content-type": "application/json" }).end(text);
  };
}

export interface EmulatorBehindRecorder {
  emulator: { readonly url: string };
  proxy: Recorder;
}

// The emulator with a recorder forwarding to it, started before the file's tests (`prepare` gives the recorder's
// options), emptied of what it kept before each test, and closed after them all. Read the two only inside tests
// and hooks: they exist from the file's first beforeAll on.
export function emulatorBehindRecorder(headerNames: string[], prepare: () => Promise<RecorderOptions> = () => Promise.resolve({})): EmulatorBehindRecorder {
  let running: RunningEmulator | undefined;
  let recorder: Recorder | undefined;
  const started = (): Recorder => {
    if (!recorder) throw new Error("the recorder starts in beforeAll");
    return recorder;
  };
  beforeAll(async () => {
    running = await startEmulator({ port: 0 });
    recorder = await startRecorder(forwardTo(running.url, headerNames), await prepare());
  });
  afterAll(async () => {
    await recorder?.close();
    await running?.close();
  });
  beforeEach(() => {
    for (const kept of [started().requests, started().bodies, started().paths]) kept.length = 0;
  });
  return {
    emulator: {
      get url() {
        if (!running) throw new Error("the emulator starts in beforeAll");
        return running.url;
      },
    },
    proxy: {
      get url() {
        return started().url;
      },
      get requests() {
        return started().requests;
      },
      get bodies() {
        return started().bodies;
      },
      get paths() {
        return started().paths;
      },
      close: () => started().close(),
    },
  };
}

// Answers each call with the JSON kept for its method, or an empty object.
export function answerByMethod(answers: Record<string, unknown>): Answer {
  return async (call, _request, reply) => {
    reply.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answers[call.method] ?? {}));
  };
}

// Calls the emulator directly, as a client of the vendor would.
export async function emulatorCall<T = Record<string, unknown>>(
  url: string,
  method: string,
  pathname: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: T }> {
  const response = await fetch(`${url}${pathname}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as T };
}

// Serves fixed bytes at every path, as the service's signed artifact URLs serve input media.
export async function serveMedia(bytes: Buffer, contentType: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_request, reply) => reply.writeHead(200, { "content-type": contentType, "content-length": bytes.length }).end(bytes));
  const url = await listen(server);
  return { url: `${url}/media`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export function vendorAEndpoint(baseUrl: string): ProviderEndpoint {
  return { baseUrl, apiKey: "contract-key", ids: DEFAULT_VENDOR_IDS.vendorA };
}
