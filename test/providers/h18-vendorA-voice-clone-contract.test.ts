import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_VENDOR_IDS } from "../../core/catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../core/config.js";
import { probeMedia } from "../../core/media/probe.js";
import { ProviderFailure, type ProviderRequest } from "../../core/providers/types.js";
import { cloneVendorAVoice } from "../../core/providers/vendorA/voice-clone.js";
import { startEmulator, type RunningEmulator } from "../../emulator/server.js";
import { voiceLike } from "./audio-support.js";

// vendorA voice clone against the copy of its reference kept in the repo (docs/providers/reference/vendorA-voice-clone.json):
// the sample goes up as a multipart file upload, the clone names it by file_id, and the emulator answers both as
// the reference does.

interface Reference {
  upload: { response: object };
  request: object;
  response: object;
}

const reference = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../docs/providers/reference/vendorA-voice-clone.json"), "utf8"),
) as Reference;
const uploadResponseSchema = z.fromJSONSchema(reference.upload.response as z.core.JSONSchema.JSONSchema);
const cloneRequestSchema = z.fromJSONSchema(reference.request as z.core.JSONSchema.JSONSchema);
const cloneResponseSchema = z.fromJSONSchema(reference.response as z.core.JSONSchema.JSONSchema);

interface Passed {
  path: string;
  contentType: string;
  body: Buffer;
  answer: unknown;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let emulator: RunningEmulator;
let proxy: Server;
let proxyUrl: string;
let sampleServer: Server;
let sampleUrl: string;
const passed: Passed[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  // A real HTTP hop in front of the emulator keeping what goes through it.
  proxy = createServer((request, reply) => {
    void readBody(request).then(async (body) => {
      const contentType = request.headers["content-type"] ?? "";
      const answered = await fetch(`${emulator.url}${request.url ?? ""}`, {
        method: "POST",
        headers: { "content-type": contentType, authorization: request.headers.authorization ?? "" },
        body,
      });
      const text = await answered.text();
      passed.push({ path: request.url ?? "", contentType, body, answer: JSON.parse(text) as unknown });
      reply.writeHead(answered.status, { "content-type": "application/json" }).end(text);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  // The service's stored sample, as the worker hands it over: a URL the adapter reads.
  const sample = await voiceLike(120, 11);
  sampleServer = createServer((_request, reply) => reply.writeHead(200, { "content-type": "audio/mpeg" }).end(sample));
  await new Promise<void>((resolve) => sampleServer.listen(0, "127.0.0.1", resolve));
  sampleUrl = `http://127.0.0.1:${(sampleServer.address() as AddressInfo).port}/sample.mp3`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await new Promise<void>((resolve) => sampleServer.close(() => resolve()));
  await emulator.close();
});

function cloneRequest(input: Record<string, unknown> = {}): ProviderRequest {
  return {
    taskId: "task_01contractclone0000000000",
    capability: "voice_clone",
    model: "vendorA-voice-clone",
    input: { sample: { url: sampleUrl, kind: "audio", format: "mp3", width: null, height: null, duration_seconds: 11, has_audio: true }, ...input },
  };
}

describe("vendorA voice clone against its reference", () => {
  it("uploads the sample, clones it by file_id with the vendor's speech model, and takes demo_audio", async () => {
    passed.length = 0;
    const endpoint: ProviderEndpoint = { baseUrl: `${proxyUrl}/vendorA`, apiKey: "contract-key", ids: DEFAULT_VENDOR_IDS.vendorA };
    const outcome = await cloneVendorAVoice(endpoint, cloneRequest({ language: "en-GB", model_options: { vendorA: { need_noise_reduction: true } } }), AbortSignal.timeout(120_000));

    const [upload, clone] = passed;
    expect(upload?.path).toBe("/vendorA/v1/files/upload");
    expect(upload?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const multipart = upload?.body.toString("latin1") ?? "";
    expect(multipart).toMatch(/name="purpose"\r\n\r\nvoice_clone\r\n/);
    expect(multipart).toMatch(/name="file"; filename="sample\.mp3"/);
    expect(uploadResponseSchema.safeParse(upload?.answer).success).toBe(true);

    expect(clone?.path).toBe("/vendorA/v1/voice_clone");
    const sent = JSON.parse(clone?.body.toString("utf8") ?? "{}") as Record<string, unknown>;
    expect(cloneRequestSchema.safeParse(sent).success).toBe(true);
    expect(sent).toMatchObject({
      file_id: (upload?.answer as { file: { file_id: number } }).file.file_id,
      voice_id: "voice_01contractclone0000000000",
      model: "speech-2.8-hd",
      language_boost: "English",
      need_noise_reduction: true,
    });
    expect(cloneResponseSchema.safeParse(clone?.answer).success).toBe(true);

    expect(outcome).toMatchObject({ status: "done", outputs: [{ kind: "audio", role: "preview" }], data: { voice_id: "voice_01contractclone0000000000" } });
    const demo = outcome.status === "done" ? (outcome.outputs[0]?.url ?? "") : "";
    expect(await probeMedia(Buffer.from(await (await fetch(demo)).arrayBuffer()))).toMatchObject({ codec: "mp3", hasAudio: true });
  });

  it.each([
    ["the old audio_url form", { voice_id: "voice_01abcdefgh", model: "speech-2.8-hd", audio_url: "https://files.example/s.mp3" }],
    ["a file_id never uploaded", { file_id: 1, voice_id: "voice_01abcdefgh", model: "speech-2.8-hd", text: "Hello" }],
    ["our own model id as the preview model", { file_id: 1, voice_id: "voice_01abcdefgh", model: "vendorA-speech-2.8-hd", text: "Hello" }],
  ])("the emulator refuses %s with 2013", async (_case, body) => {
    const response = await fetch(`${emulator.url}/vendorA/v1/voice_clone`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer contract-key" },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { base_resp: { status_code: number } };
    expect(cloneResponseSchema.safeParse(answer).success).toBe(true);
    expect(answer.base_resp.status_code).toBe(2013);
  });

  it("the adapter takes input_sensitive as safety_rejected", async () => {
    const vendor = createServer((request, reply) => {
      const answer = request.url?.endsWith("/v1/files/upload")
        ? { file: { file_id: 7, bytes: 1, created_at: 1, filename: "sample.mp3", purpose: "voice_clone" }, base_resp: { status_code: 0, status_msg: "success" } }
        : { input_sensitive: true, input_sensitive_type: 1, demo_audio: "", base_resp: { status_code: 0, status_msg: "success" } };
      void readBody(request).then(() => reply.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer)));
    });
    await new Promise<void>((resolve) => vendor.listen(0, "127.0.0.1", resolve));
    try {
      const endpoint = { baseUrl: `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`, apiKey: "k" };
      const failure = await cloneVendorAVoice(endpoint, cloneRequest(), AbortSignal.timeout(60_000)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProviderFailure);
      expect(failure).toMatchObject({ code: "safety_rejected", transient: false });
    } finally {
      await new Promise<void>((resolve) => vendor.close(() => resolve()));
    }
  });
});
