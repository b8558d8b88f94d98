import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeMedia } from "../../core/media/probe.js";
import type { ProviderRequestOf } from "../../core/providers/served-capabilities.js";
import { ProviderFailure } from "../../core/providers/types.js";
import { cloneVendorAVoice } from "../../core/providers/vendorA/voice-clone.js";
import { voiceLike } from "./audio-support.js";
import { emulatorBehindRecorder, emulatorCall, loadReference, type Recorder, schemaOf, startRecorder, vendorAEndpoint } from "./contract-support.js";

// vendorA voice clone against the copy of its reference kept in the repo (docs/providers/reference/vendorA-voice-clone.json):
// the sample goes up as a multipart file upload, the clone names it by file_id, and the emulator answers both as
// the reference does.

interface Reference {
  upload: { response: object };
  request: object;
  response: object;
}

const reference = loadReference<Reference>("vendorA-voice-clone.json");
const uploadResponseSchema = schemaOf(reference.upload.response);
const cloneRequestSchema = schemaOf(reference.request);
const cloneResponseSchema = schemaOf(reference.response);

// A real HTTP hop in front of the emulator keeping what goes through it.
const { emulator, proxy } = emulatorBehindRecorder(["authorization"]);
let sampleServer: Recorder;
let sampleUrl: string;

beforeAll(async () => {
  // The service's stored sample, as the worker hands it over: a URL the adapter reads.
  const sample = await voiceLike(120, 11);
  sampleServer = await startRecorder(async (_call, _request, reply) => {
    reply.writeHead(200, { "content-type": "audio/mpeg" }).end(sample);
  });
  sampleUrl = `${sampleServer.url}/sample.mp3`;
});

afterAll(async () => {
  await sampleServer.close();
});

function cloneRequest(input: Record<string, unknown> = {}): ProviderRequestOf<"voice_clone"> {
  return {
    taskId: "task_01contractclone0000000000",
    capability: "voice_clone",
    model: "vendorA-voice-clone",
    input: { sample: { url: sampleUrl, kind: "audio", format: "mp3", width: null, height: null, duration_seconds: 11, has_audio: true }, display_name: "Narrator", model: "vendorA-voice-clone", consent_attested: true, ...input },
  };
}

describe("vendorA voice clone against its reference", () => {
  it("uploads the sample, clones it by file_id with the vendor's speech model, and takes demo_audio", async () => {
    proxy.requests.length = 0;
    const endpoint = vendorAEndpoint(`${proxy.url}/vendorA`);
    const outcome = await cloneVendorAVoice(endpoint, cloneRequest({ language: "en-GB", model_options: { vendorA: { need_noise_reduction: true } } }), AbortSignal.timeout(120_000));

    const [upload, clone] = proxy.requests.map((call) => ({ path: call.path, contentType: call.headers["content-type"] ?? "", body: call.raw, answer: call.answer }));
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
    const { json: answer } = await emulatorCall<{ base_resp: { status_code: number } }>(emulator.url, "POST", "/vendorA/v1/voice_clone", body, { authorization: "Bearer contract-key" });
    expect(cloneResponseSchema.safeParse(answer).success).toBe(true);
    expect(answer.base_resp.status_code).toBe(2013);
  });

  it("the adapter takes input_sensitive as safety_rejected", async () => {
    const vendor = await startRecorder(async (call, _request, reply) => {
      const answer = call.path.endsWith("/v1/files/upload")
        ? { file: { file_id: 7, bytes: 1, created_at: 1, filename: "sample.mp3", purpose: "voice_clone" }, base_resp: { status_code: 0, status_msg: "success" } }
        : { input_sensitive: true, input_sensitive_type: 1, demo_audio: "", base_resp: { status_code: 0, status_msg: "success" } };
      reply.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
    try {
      const endpoint = { baseUrl: vendor.url, apiKey: "k" };
      const failure = await cloneVendorAVoice(endpoint, cloneRequest(), AbortSignal.timeout(60_000)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProviderFailure);
      expect(failure).toMatchObject({ code: "safety_rejected", transient: false });
    } finally {
      await vendor.close();
    }
  });
});
