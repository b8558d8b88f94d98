import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_VENDOR_IDS } from "../../core/catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../core/config.js";

// What vendorA's contract tests share: the kept copies of the vendor's references (docs/providers/reference),
// a real HTTP hop in front of the vendor that keeps each request body, and a server for input media.

export interface Reference {
  request: z.ZodType;
  response: z.ZodType;
  examples: { request?: Record<string, unknown>; response?: Record<string, unknown> };
}

export function loadReference(name: string): Reference {
  const copy = JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../docs/providers/reference/${name}.json`), "utf8")) as {
    request: z.core.JSONSchema.JSONSchema;
    response: z.core.JSONSchema.JSONSchema;
    examples?: Reference["examples"];
  };
  return { request: z.fromJSONSchema(copy.request), response: z.fromJSONSchema(copy.response), examples: copy.examples ?? {} };
}

export interface Recorder {
  url: string;
  bodies: unknown[];
  // The path of each call, in order.
  paths: string[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// Passes each JSON call on to `target` (the emulator) and its answer back, keeping the request bodies.
export async function startProxy(target: string): Promise<Recorder> {
  return startRecorder(async (body, request, reply) => {
    const answered = await fetch(`${target}${request.url ?? ""}`, {
      method: request.method ?? "POST",
      headers: { "content-type": "application/json", authorization: request.headers.authorization ?? "" },
      ...(request.method === "GET" ? {} : { body }),
    });
    reply.writeHead(answered.status, { "content-type": "application/json" }).end(await answered.text());
  });
}

// A stand-in vendor answering each call as `answer` says, keeping the request bodies.
export async function startRecorder(answer: (body: string, request: IncomingMessage, reply: ServerResponse) => Promise<void>): Promise<Recorder> {
  const bodies: unknown[] = [];
  const paths: string[] = [];
  const server = createServer((request, reply) => {
    paths.push((request.url ?? "").split("?")[0] ?? "");
    void readBody(request).then(async (body) => {
      if (body.length > 0) bodies.push(JSON.parse(body) as unknown);
      await answer(body, request, reply);
    });
  });
  const url = await listen(server);
  return { url, bodies, paths, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// Serves fixed bytes at every path, as the service's signed artifact URLs serve input media.
export async function serveMedia(bytes: Buffer, contentType: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_request, reply) => reply.writeHead(200, { "content-type": contentType, "content-length": bytes.length }).end(bytes));
  const url = await listen(server);
  return { url: `${url}/media`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export function endpointAt(baseUrl: string): ProviderEndpoint {
  return { baseUrl, apiKey: "contract-key", ids: DEFAULT_VENDOR_IDS.vendorA };
}
