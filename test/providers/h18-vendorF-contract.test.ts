import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_VENDOR_IDS, mergeVendorIds, vendorIdProblems } from "../../core/catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../core/config.js";
import type { ProviderOutcome, ProviderRequest } from "../../core/providers/types.js";
import { vendorFAdapter } from "../../core/providers/vendorF/adapter.js";
import { startEmulator, type RunningEmulator } from "../../emulator/server.js";

// vendorF's protocol matches no published vendor API we could find (docs/providers/vendorF.md). What it shares with
// fal.ai, the published API with the same `Authorization: Key` credential, is kept in
// docs/providers/reference/vendorF-fal-shared.json, and checked here on both sides: the credential, the types of the
// input fields whose names coincide, and fal's image object in a completed task's result. The rest of the protocol
// has no reference to be checked against.

interface Reference {
  authorization: { header: string; pattern: string };
  image: object;
  sharedInput: object;
  examples: { image: unknown; input: unknown };
}

const reference = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../docs/providers/reference/vendorF-fal-shared.json"), "utf8")) as Reference;
const imageSchema = z.fromJSONSchema(reference.image as z.core.JSONSchema.JSONSchema);
const sharedInputSchema = z.fromJSONSchema(reference.sharedInput as z.core.JSONSchema.JSONSchema);

interface Seen {
  headers: IncomingHttpHeaders;
  body: unknown;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

let emulator: RunningEmulator;
let proxy: Server;
let proxyUrl: string;
const seen: Seen[] = [];
const answers: unknown[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  // A real HTTP hop in front of the emulator that keeps what the adapter sent and what the vendor answered.
  proxy = createServer((request, reply) => {
    void readBody(request).then(async (body) => {
      seen.push({ headers: request.headers, body: body === "" ? undefined : (JSON.parse(body) as unknown) });
      const answered = await fetch(`${emulator.url}${request.url ?? ""}`, {
        method: request.method ?? "GET",
        headers: { "content-type": "application/json", authorization: request.headers.authorization ?? "" },
        ...(body === "" ? {} : { body }),
      });
      const text = await answered.text();
      answers.push(JSON.parse(text) as unknown);
      reply.writeHead(answered.status, { "content-type": "application/json" }).end(text);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await emulator.close();
});

const endpoint = (): ProviderEndpoint => ({ baseUrl: `${proxyUrl}/vendorF`, apiKey: "contract-key", ids: DEFAULT_VENDOR_IDS.vendorF });

async function untilDone(request: ProviderRequest): Promise<ProviderOutcome> {
  const adapter = vendorFAdapter(endpoint());
  let outcome = await adapter.submit(request, AbortSignal.timeout(30_000));
  for (let read = 0; outcome.status === "pending" && read < 300; read++) {
    await new Promise((resolve) => setTimeout(resolve, outcome.status === "pending" ? Math.min(outcome.pollAfterMs, 200) : 0));
    outcome = await adapter.poll!(outcome.status === "pending" ? outcome.ref : "", request, AbortSignal.timeout(30_000));
  }
  return outcome;
}

describe("the parts vendorF shares with fal.ai", () => {
  it("the reference copy accepts its own examples", () => {
    expect(imageSchema.safeParse(reference.examples.image).success).toBe(true);
    expect(sharedInputSchema.safeParse(reference.examples.input).success).toBe(true);
  });

  it("the emulator refuses a call without the Key credential", async () => {
    const response = await fetch(`${emulator.url}/vendorF/v2/image-tasks`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer contract-key" },
      body: JSON.stringify({ model: "vendorF-image-3.0", input: { prompt: "x" } }),
    });
    expect(response.status).toBe(401);
  });

  it("a text-to-image task: the credential and the shared input fields as fal has them, the result's images as fal's image objects", async () => {
    seen.length = 0;
    answers.length = 0;
    const request: ProviderRequest = {
      taskId: "task_contract",
      capability: "text_to_image",
      model: "vendorF-image-3.0",
      input: { prompt: "a lighthouse", model: "vendorF-image-3.0", count: 2, canvas: { tier: "1K", aspect: "4:3" }, output_relationship: "independent", seed: 42 },
    };
    const outcome = await untilDone(request);
    expect(outcome).toMatchObject({ status: "done", outputs: [{ kind: "image" }, { kind: "image" }] });
    for (const call of seen) expect(call.headers.authorization).toMatch(new RegExp(reference.authorization.pattern));
    const created = seen[0]?.body as { input: Record<string, unknown> };
    const { prompt, num_images, image_size, seed } = created.input;
    expect(sharedInputSchema.safeParse({ prompt, num_images, image_size, seed }).success).toBe(true);
    expect(image_size).toEqual({ width: 1024, height: 768 });
    const completed = answers.find((answer) => (answer as { state?: string }).state === "completed") as { result: { images: unknown[] } };
    expect(completed.result.images).toHaveLength(2);
    for (const image of completed.result.images) expect(imageSchema.safeParse(image).success, JSON.stringify(image)).toBe(true);
  });
});

describe("the id map", () => {
  it("maps no vendorF model: there is no published model list to read ids from", () => {
    expect(DEFAULT_VENDOR_IDS.vendorF).toEqual({ models: {}, voices: {} });
    expect(vendorIdProblems(mergeVendorIds({}), ["vendorF"])).toEqual([]);
  });
});
