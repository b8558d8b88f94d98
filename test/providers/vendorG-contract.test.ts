import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_VENDOR_IDS } from "../../core/catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../core/config.js";
import { probeMedia } from "../../core/media/probe.js";
import type { MusicCapability } from "../../core/providers/music-job.js";
import type { ProviderRequestOf } from "../../core/providers/served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../../core/providers/types.js";
import { pollVendorGMusic, submitVendorGMusic } from "../../core/providers/vendorG/music.js";
import { emulatorBehindRecorder, emulatorCall as callEmulator, loadReference, type Recorder, schemaOf, startRecorder } from "./contract-support.js";

// vendorG's music calls against the copy of its reference kept in the repo (docs/providers/reference/vendorG-generate.json):
// the adapter's requests and the emulator's answers must fit its schemas, and its own examples must go through
// both. A disagreement between the emulator and the reference fails here.

interface Reference {
  models: string[];
  request: object;
  uploadCoverRequest: object;
  submitResponse: object;
  recordInfoResponse: object;
  creditResponse: object;
  examples: Record<"generateRequest" | "submitResponse" | "recordInfoResponse" | "creditResponse", Record<string, unknown>>;
}

const reference = loadReference<Reference>("vendorG-generate.json");
const generateSchema = schemaOf(reference.request);
const coverSchema = schemaOf(reference.uploadCoverRequest);
const submitSchema = schemaOf(reference.submitResponse);
const recordInfoSchema = schemaOf(reference.recordInfoResponse);
const creditSchema = schemaOf(reference.creditResponse);

interface Envelope {
  code: number;
  msg: string;
  data: { taskId?: string; status?: string; response?: { sunoData?: { audioUrl?: string }[] } | null } | number | null;
}

// Eight seconds of a 220 Hz tone as 16 kHz mono WAV: a recording for upload-cover.
function toneWav(seconds = 8, rate = 16_000): Buffer {
  const samples = seconds * rate;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write("RIFF", 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write("WAVEfmt ", 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i += 1) wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / rate)), 44 + i * 2);
  return wav;
}

const { emulator, proxy } = emulatorBehindRecorder(["authorization"]);
let recording: Recorder;

beforeAll(async () => {
  const wav = toneWav();
  recording = await startRecorder(async (_call, _request, reply) => {
    reply.writeHead(200, { "content-type": "audio/wav" }).end(wav);
  });
});

afterAll(async () => {
  await recording.close();
});

function endpointAt(baseUrl: string): ProviderEndpoint {
  return { baseUrl, apiKey: "contract-key", ids: DEFAULT_VENDOR_IDS.vendorG };
}

// Only the fields each test reads are given (a reference recording is only its URL), hence the assertion.
function musicRequest(input: Record<string, unknown>, capability: MusicCapability = "text_to_music"): ProviderRequestOf<MusicCapability> {
  return { taskId: "task_contract", capability, model: "vendorG-6", input: { prompt: "indie folk", model: "vendorG-6", instrumental: false, ...input } } as ProviderRequestOf<MusicCapability>;
}

async function emulatorCall(route: string, body?: unknown, key = "contract-key"): Promise<{ status: number; answer: Envelope }> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const { status, json } = await callEmulator<Envelope>(emulator.url, body === undefined ? "GET" : "POST", `/vendorG${route}`, body, headers);
  return { status, answer: json };
}

// Reads the task until it is done, as the worker would (without waiting between reads).
async function followToTheEnd(endpoint: ProviderEndpoint, request: ProviderRequestOf<MusicCapability>): Promise<ProviderOutcome> {
  let outcome = await submitVendorGMusic(endpoint, request, AbortSignal.timeout(60_000));
  for (let reads = 0; outcome.status === "pending" && reads < 600; reads += 1) {
    if (reads > 3) await new Promise((resolve) => setTimeout(resolve, 100));
    outcome = await pollVendorGMusic(endpoint, outcome.ref, request, AbortSignal.timeout(60_000));
  }
  return outcome;
}

describe("the reference copy", () => {
  it("accepts its own examples", () => {
    expect(generateSchema.safeParse(reference.examples.generateRequest).success).toBe(true);
    expect(submitSchema.safeParse(reference.examples.submitResponse).success).toBe(true);
    expect(recordInfoSchema.safeParse(reference.examples.recordInfoResponse).success).toBe(true);
    expect(creditSchema.safeParse(reference.examples.creditResponse).success).toBe(true);
  });

  it("refuses what the old adapter sent: our model id, no callBackUrl, a title without custom mode, custom mode without one", () => {
    const { callBackUrl: _callBackUrl, ...withoutCallback } = reference.examples.generateRequest;
    expect(generateSchema.safeParse({ ...reference.examples.generateRequest, model: "vendorG-6" }).success).toBe(false);
    expect(generateSchema.safeParse(withoutCallback).success).toBe(false);
    const nonCustom = { customMode: false, instrumental: false, model: "V5", callBackUrl: "https://service.example/cb", prompt: "lofi" };
    expect(generateSchema.safeParse(nonCustom).success).toBe(true);
    expect(generateSchema.safeParse({ ...nonCustom, title: "Lofi" }).success).toBe(false);
    expect(generateSchema.safeParse({ ...nonCustom, prompt: "a".repeat(501) }).success).toBe(false);
    const { title: _title, ...untitled } = reference.examples.generateRequest;
    expect(generateSchema.safeParse(untitled).success).toBe(false);
  });
});

describe("the emulator answers as the reference does", () => {
  it("takes the reference's request example and reads the task through its stages to SUCCESS", async () => {
    const submitted = await emulatorCall("/api/v1/generate", reference.examples.generateRequest);
    expect(submitted.status).toBe(200);
    expect(submitSchema.safeParse(submitted.answer).success).toBe(true);
    const taskId = (submitted.answer.data as { taskId: string }).taskId;
    const statuses: string[] = [];
    for (let reads = 0; reads < 600 && statuses.at(-1) !== "SUCCESS"; reads += 1) {
      const read = await emulatorCall(`/api/v1/generate/record-info?taskId=${taskId}`);
      expect(read.status).toBe(200);
      expect(recordInfoSchema.safeParse(read.answer).success).toBe(true);
      const data = read.answer.data as { status: string; response: { sunoData: { audioUrl: string }[] } | null };
      if (statuses.at(-1) !== data.status) statuses.push(data.status);
      if (data.status === "SUCCESS") {
        expect(data.response?.sunoData).toHaveLength(2);
        const bytes = Buffer.from(await (await fetch(data.response?.sunoData[0]?.audioUrl ?? "")).arrayBuffer());
        expect(await probeMedia(bytes)).toMatchObject({ container: "mp3", hasAudio: true });
      }
      if (reads > 3) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(statuses).toEqual(["TEXT_SUCCESS", "FIRST_SUCCESS", "SUCCESS"]);
  });

  it("answers the credit balance in the reference's shape", async () => {
    const credit = await emulatorCall("/api/v1/generate/credit");
    expect(credit.status).toBe(200);
    expect(creditSchema.safeParse(credit.answer).success).toBe(true);
    expect(credit.answer).toMatchObject({ code: 200, msg: "success" });
  });

  it.each([
    ["our own model id", { model: "vendorG-6" }, 400],
    ["no callBackUrl", { callBackUrl: undefined }, 400],
    ["custom mode without a title", { title: undefined }, 400],
    ["a weight with three decimals", { styleWeight: 0.655 }, 400],
    ["a style longer than V5's 1000 characters", { model: "V5", style: "s".repeat(1001) }, 413],
    ["a title longer than V4_5ALL's 80 characters", { title: "t".repeat(81) }, 413],
  ])("refuses %s with code %i inside an HTTP 200", async (_case, change, code) => {
    const answer = await emulatorCall("/api/v1/generate", { ...reference.examples.generateRequest, ...change });
    expect(answer.status).toBe(200);
    expect(submitSchema.safeParse(answer.answer).success).toBe(true);
    expect(answer.answer).toMatchObject({ code, data: null });
  });

  it("refuses a non-custom prompt over 500 characters (413) and a call without a key (401)", async () => {
    const nonCustom = { customMode: false, instrumental: false, model: "V5", callBackUrl: "https://service.example/cb", prompt: "p".repeat(501) };
    expect((await emulatorCall("/api/v1/generate", nonCustom)).answer.code).toBe(413);
    expect((await emulatorCall("/api/v1/generate/credit", undefined, "")).answer).toMatchObject({ code: 401, data: null });
  });
});

describe("the adapter's requests fit the reference", () => {
  it("describes the song alone when there are no lyrics, by the vendor's model id", async () => {
    const outcome = await followToTheEnd(endpointAt(`${proxy.url}/vendorG`), musicRequest({ title: "Ignored", instrumental: true }));
    const sent = proxy.bodies[0] as Record<string, unknown>;
    expect(generateSchema.safeParse(sent).success).toBe(true);
    expect(sent).toEqual({ model: "V5", customMode: false, instrumental: true, callBackUrl: `${proxy.url}/vendorG`, prompt: "indie folk" });
    expect(outcome).toMatchObject({ status: "done", data: { lyrics: null } });
    expect(outcome.status === "done" && outcome.outputs).toHaveLength(2);
  });

  it("sends lyrics in custom mode with the prompt as style, a title made from the first line, and two-decimal weights", async () => {
    const lyrics = "Rain on the window\nCoffee gone cold";
    const request = musicRequest({ lyrics, model_options: { vendorG: { vocal_gender: "f", style_weight: 0.333, negative_tags: "metal" } } });
    const outcome = await followToTheEnd(endpointAt(`${proxy.url}/vendorG`), request);
    const sent = proxy.bodies[0] as Record<string, unknown>;
    expect(generateSchema.safeParse(sent).success).toBe(true);
    expect(sent).toMatchObject({ customMode: true, style: "indie folk", prompt: lyrics, title: "Rain on the window", styleWeight: 0.33, vocalGender: "f" });
    expect(outcome).toMatchObject({ status: "done", data: { lyrics, title: "Rain on the window" } });
  });

  it("sends a reference recording to upload-cover", async () => {
    const request = musicRequest({ instrumental: true, reference_audio: { url: `${recording.url}/tone.wav` } }, "reference_audio_to_music");
    const outcome = await followToTheEnd(endpointAt(`${proxy.url}/vendorG`), request);
    const sent = proxy.bodies[0] as Record<string, unknown>;
    expect(coverSchema.safeParse(sent).success).toBe(true);
    expect(sent.uploadUrl).toBe(`${recording.url}/tone.wav`);
    expect(outcome.status).toBe("done");
  });
});

describe("the reference's answers replayed through the adapter", () => {
  async function answering(answer: (path: string) => unknown): Promise<Recorder> {
    return startRecorder(async (_call, request, reply) => {
      reply.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer(request.url ?? "")));
    });
  }

  it("takes the record-info example as the finished task: its audioUrl, title and lyrics", async () => {
    const vendor = await answering((url) => (url.includes("record-info") ? reference.examples.recordInfoResponse : reference.examples.submitResponse));
    try {
      const submitted = await submitVendorGMusic(endpointAt(vendor.url), musicRequest({}), AbortSignal.timeout(10_000));
      expect(submitted).toMatchObject({ status: "pending", ref: expect.stringMatching(/^5c79\*\*\*\*be8e@\d+$/) as unknown });
      const outcome = await pollVendorGMusic(endpointAt(vendor.url), submitted.status === "pending" ? submitted.ref : "", musicRequest({}), AbortSignal.timeout(10_000));
      expect(outcome).toEqual({
        status: "done",
        outputs: [{ url: "https://example.cn/****.mp3", kind: "audio", format: "mp3" }],
        data: { title: "钢铁侠", lyrics: "[Verse] 夜晚城市 灯火辉煌" },
      });
    } finally {
      await vendor.close();
    }
  });

  it.each([
    [430, "model_rate_limited", true],
    [405, "model_rate_limited", true],
    [429, "model_unavailable", false],
    [401, "model_unavailable", false],
    [455, "model_request_failed", true],
    [413, "unsupported_option", false],
    [400, "unsupported_option", false],
  ] as const)("maps code %i to %s", async (code, publicCode, transient) => {
    const vendor = await answering(() => ({ code, msg: "refused", data: null }));
    try {
      const failure = await submitVendorGMusic(endpointAt(vendor.url), musicRequest({}), AbortSignal.timeout(10_000)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProviderFailure);
      expect(failure).toMatchObject({ code: publicCode, transient });
    } finally {
      await vendor.close();
    }
  });

  it("tells a refused prompt (nothing written) from filtered output (tracks written)", async () => {
    const example = reference.examples.recordInfoResponse as { data: Record<string, unknown> };
    const sensitive = (response: unknown) => ({ ...example, data: { ...example.data, status: "SENSITIVE_WORD_ERROR", response, errorCode: 400, errorMessage: "prohibited" } });
    for (const [response, code] of [
      [null, "safety_rejected"],
      [{ taskId: "5c79****be8e", sunoData: [{ id: "8551****662c", audioUrl: "", prompt: "words" }] }, "content_filtered"],
    ] as const) {
      const vendor = await answering(() => sensitive(response));
      try {
        const failure = await pollVendorGMusic(endpointAt(vendor.url), "5c79****be8e@0", musicRequest({}), AbortSignal.timeout(10_000)).catch((error: unknown) => error);
        expect(failure).toMatchObject({ code, transient: false });
      } finally {
        await vendor.close();
      }
    }
  });
});
