import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { probeMedia } from "../../core/media/probe.js";
import { startEmulator, type RunningEmulator } from "../../emulator/server.js";

// Faults and the request log name models by our ids; requests carry the vendor's (core/catalog/vendor-ids.ts).
const HD_MODEL = "vendorA-speech-2.8-hd";
const TURBO_MODEL = "vendorA-speech-2.8-turbo";
const VENDOR_MODEL: Record<string, string> = { [HD_MODEL]: "speech-2.8-hd", [TURBO_MODEL]: "speech-2.8-turbo" };
const SHORT_TEXT = "The quick brown fox jumps over the lazy dog.";
const LONG_TEXT = `${SHORT_TEXT} Then it runs back across the field, past the old barn, and all the way home again.`;
const API_KEY_HEADER = { authorization: "Bearer test-key" };

interface SpeechAnswer {
  base_resp: { status_code: number; status_msg: string };
  data?: { audio?: string; status: number };
  extra_info?: {
    audio_length: number;
    audio_sample_rate: number;
    audio_size: number;
    audio_format: string;
    usage_characters: number;
  };
  trace_id?: string;
}

interface SpeechOptions {
  model?: string;
  text?: string;
  format?: string;
  sampleRate?: number;
  speed?: number;
  vol?: number;
  language?: string | null;
}

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});

afterAll(() => emulator.close());

beforeEach(async () => {
  await fetch(`${emulator.url}/_emulator/faults`, { method: "DELETE" });
  await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
});

function speechBody(options: SpeechOptions = {}) {
  return {
    model: VENDOR_MODEL[options.model ?? HD_MODEL] ?? options.model,
    text: options.text ?? SHORT_TEXT,
    voice_setting: { voice_id: "English_Graceful_Lady", speed: options.speed ?? 1, vol: options.vol ?? 1, pitch: 0 },
    audio_setting: { format: options.format ?? "pcm", sample_rate: options.sampleRate ?? 16000, channel: 1 },
    language_boost: options.language ?? "English",
    output_format: "url",
  };
}

function submit(body: unknown, headers: Record<string, string> = API_KEY_HEADER, baseUrl = emulator.url) {
  return fetch(`${baseUrl}/vendorA/v1/t2a_v2`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function submitSpeech(options: SpeechOptions = {}): Promise<{ status: number; answer: SpeechAnswer }> {
  const response = await submit(speechBody(options));
  return { status: response.status, answer: (await response.json()) as SpeechAnswer };
}

async function download(url: string) {
  const response = await fetch(url);
  return { status: response.status, contentType: response.headers.get("content-type"), bytes: Buffer.from(await response.arrayBuffer()) };
}

async function queueFault(fault: Record<string, unknown>, baseUrl = emulator.url) {
  const response = await fetch(`${baseUrl}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ family: "vendorA", ...fault }),
  });
  expect(response.status).toBe(201);
}

function rms(pcm: Buffer): number {
  let sum = 0;
  for (let offset = 0; offset + 1 < pcm.length; offset += 2) sum += pcm.readInt16LE(offset) ** 2;
  return Math.sqrt(sum / (pcm.length / 2));
}

describe("vendorA speech formats", () => {
  const cases = [
    { format: "mp3", sampleRate: 32000, container: "mp3", codec: "mp3", contentType: "audio/mpeg", probedRate: 32000 },
    { format: "wav", sampleRate: 24000, container: "wav", codec: "pcm_s16le", contentType: "audio/wav", probedRate: 24000 },
    { format: "flac", sampleRate: 44100, container: "flac", codec: "flac", contentType: "audio/flac", probedRate: 44100 },
    { format: "pcm", sampleRate: 22050, container: "pcm", codec: "pcm_s16le", contentType: "audio/L16", probedRate: 22050 },
  ] as const;

  it.each(cases)("serves $format speech that decodes as $codec", async (expected) => {
    const { status, answer } = await submitSpeech({ format: expected.format, sampleRate: expected.sampleRate });
    expect(status).toBe(200);
    expect(answer.base_resp).toEqual({ status_code: 0, status_msg: "success" });
    expect(answer.data?.status).toBe(2);
    expect(answer.data?.audio).toMatch(new RegExp(`^${emulator.url}/vendorA/v1/files/`));
    expect(answer.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(answer.extra_info).toMatchObject({
      audio_sample_rate: expected.sampleRate,
      audio_format: expected.format,
      usage_characters: SHORT_TEXT.length,
    });

    const file = await download(answer.data?.audio ?? "");
    expect(file.status).toBe(200);
    expect(file.contentType).toBe(expected.contentType);
    expect(file.bytes.length).toBe(answer.extra_info?.audio_size);

    const probe = await probeMedia(
      file.bytes,
      expected.format === "pcm" ? { format: "pcm", sampleRate: expected.sampleRate } : undefined,
    );
    expect(probe).toMatchObject({
      container: expected.container,
      codec: expected.codec,
      sampleRate: expected.probedRate,
      channels: 1,
      hasAudio: true,
      hasVideo: false,
    });
    expect(probe.durationSeconds).toBeGreaterThan(1.5);
    expect(probe.durationSeconds).toBeLessThan(5);
    expect(Math.abs(probe.durationSeconds - (answer.extra_info?.audio_length ?? 0) / 1000)).toBeLessThan(0.15);
  });
});

describe("vendorA speech content", () => {
  it("makes longer audio from longer text and about half as long at speed 2", async () => {
    const [short, long, fast] = await Promise.all([
      submitSpeech(),
      submitSpeech({ text: LONG_TEXT }),
      submitSpeech({ speed: 2 }),
    ]);
    const shortMs = short.answer.extra_info?.audio_length ?? 0;
    expect(shortMs).toBeGreaterThan(1000);
    expect(long.answer.extra_info?.audio_length).toBeGreaterThan(shortMs * 1.5);
    const fastRatio = (fast.answer.extra_info?.audio_length ?? 0) / shortMs;
    expect(fastRatio).toBeGreaterThan(0.35);
    expect(fastRatio).toBeLessThan(0.65);
  });

  it("applies vol as gain", async () => {
    const [normal, quiet] = await Promise.all([submitSpeech(), submitSpeech({ vol: 0.5 })]);
    const [normalPcm, quietPcm] = await Promise.all([
      download(normal.answer.data?.audio ?? ""),
      download(quiet.answer.data?.audio ?? ""),
    ]);
    expect(rms(quietPcm.bytes) / rms(normalPcm.bytes)).toBeCloseTo(0.5, 1);
  });

  it("speaks language_boost auto in English", async () => {
    const { answer } = await submitSpeech({ language: "auto" });
    expect(answer.base_resp.status_code).toBe(0);
    expect(answer.extra_info?.audio_length).toBeGreaterThan(1000);
  });
});

describe("vendorA speech request errors", () => {
  it("answers 401 without a bearer key", async () => {
    const response = await submit(speechBody(), {});
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ base_resp: { status_code: 1004, status_msg: "authentication failed" } });
  });

  it.each([
    // T2A v2 makes mp3, pcm, flac and wav, at most at 44.1 kHz (the service encodes opus itself).
    ["opus, which the vendor does not make", speechBody({ format: "opus", sampleRate: 16000 })],
    ["48 kHz, above the vendor's highest rate", speechBody({ format: "wav", sampleRate: 48000 })],
    ["an unknown format", speechBody({ format: "aac" })],
    ["an unknown model", speechBody({ model: "vendorA-speech-0.1" })],
    ["a body that is not JSON", "{not json"],
  ])("answers 200 with status 2013 for %s", async (_description, body) => {
    const response = await submit(body);
    expect(response.status).toBe(200);
    expect(((await response.json()) as SpeechAnswer).base_resp.status_code).toBe(2013);
  });
});

describe("scripted faults", () => {
  it("http_500 answers 500 with an internal error", async () => {
    await queueFault({ kind: "http_500" });
    const response = await submit(speechBody());
    expect(response.status).toBe(500);
    expect(((await response.json()) as SpeechAnswer).base_resp.status_code).toBe(1000);
  });

  it("http_429 answers 429 with Retry-After", async () => {
    await queueFault({ kind: "http_429", retry_after_seconds: 7 });
    await queueFault({ kind: "http_429" });
    const scripted = await submit(speechBody());
    expect(scripted.status).toBe(429);
    expect(scripted.headers.get("retry-after")).toBe("7");
    expect(((await scripted.json()) as SpeechAnswer).base_resp).toEqual({ status_code: 1002, status_msg: "rate limit exceeded" });
    const defaulted = await submit(speechBody());
    expect(defaulted.headers.get("retry-after")).toBe("1");
  });

  it("hang never answers", async () => {
    await queueFault({ kind: "hang" });
    await expect(
      fetch(`${emulator.url}/vendorA/v1/t2a_v2`, {
        method: "POST",
        headers: { "content-type": "application/json", ...API_KEY_HEADER },
        body: JSON.stringify(speechBody()),
        signal: AbortSignal.timeout(300),
      }),
    ).rejects.toThrow();
  });

  it.each([
    ["safety", 1026, "input new_sensitive: content flagged by safety review"],
    ["content_filtered", 1027, "output new_sensitive: generated audio blocked"],
  ])("%s answers 200 with status %i", async (kind, statusCode, message) => {
    await queueFault({ kind });
    const { status, answer } = await submitSpeech();
    expect(status).toBe(200);
    expect(answer.base_resp).toEqual({ status_code: statusCode, status_msg: message });
  });

  it("bad_download answers success but the audio URL fails every time", async () => {
    await queueFault({ kind: "bad_download" });
    const { answer } = await submitSpeech();
    expect(answer.base_resp.status_code).toBe(0);
    const url = answer.data?.audio ?? "";
    expect((await download(url)).status).toBe(500);
    expect((await download(url)).status).toBe(500);
  });

  it("unknown_status answers success with task status 7 and no audio", async () => {
    await queueFault({ kind: "unknown_status" });
    const { answer } = await submitSpeech();
    expect(answer.base_resp.status_code).toBe(0);
    expect(answer.data).toEqual({ status: 7 });
  });

  it("malformed answers a body that is not JSON", async () => {
    await queueFault({ kind: "malformed" });
    const response = await submit(speechBody());
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("not json{");
  });

  it("matches the model, lasts the given number of times and can be cleared", async () => {
    await queueFault({ kind: "http_500", model: TURBO_MODEL, times: 2 });
    await queueFault({ kind: "http_500", model: HD_MODEL });
    expect((await submit(speechBody({ model: TURBO_MODEL }))).status).toBe(500);
    expect((await submit(speechBody({ model: TURBO_MODEL }))).status).toBe(500);
    await fetch(`${emulator.url}/_emulator/faults`, { method: "DELETE" });
    expect((await submit(speechBody({ model: HD_MODEL, format: "aac" }))).status).toBe(200);
  });

  it("rejects a fault for an unknown family", async () => {
    const response = await fetch(`${emulator.url}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ family: "vendorZ", kind: "http_500" }),
    });
    expect(response.status).toBe(400);
  });
});

describe("emulator control", () => {
  it("records submit requests until they are cleared", async () => {
    await submit(speechBody({ model: TURBO_MODEL, format: "aac" }));
    await submit("{not json");
    const requests = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as Array<Record<string, unknown>>;
    expect(requests).toMatchObject([
      { family: "vendorA", method: "POST", path: "/vendorA/v1/t2a_v2", model: TURBO_MODEL },
      { family: "vendorA", method: "POST", path: "/vendorA/v1/t2a_v2", model: null },
    ]);
    expect(Number.isNaN(Date.parse(String(requests[0]?.at)))).toBe(false);
    await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
    expect(await (await fetch(`${emulator.url}/_emulator/requests`)).json()).toEqual([]);
  });

  it("answers health checks", async () => {
    expect(await (await fetch(`${emulator.url}/healthz`)).json()).toEqual({ ok: true });
  });

  it("delays submit answers by latencyMs", async () => {
    const slow = await startEmulator({ port: 0, latencyMs: 250 });
    try {
      const started = Date.now();
      expect((await submit(speechBody(), {}, slow.url)).status).toBe(401);
      expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    } finally {
      await slow.close();
    }
  });

  it("closes promptly with a request still hanging", async () => {
    const other = await startEmulator({ port: 0 });
    await queueFault({ kind: "hang" }, other.url);
    const outcome = submit(speechBody(), API_KEY_HEADER, other.url).then(
      () => "answered",
      () => "connection closed",
    );
    await expect.poll(async () => ((await (await fetch(`${other.url}/_emulator/requests`)).json()) as unknown[]).length, { timeout: 10_000 }).toBe(1);
    const closeStarted = Date.now();
    await other.close();
    expect(Date.now() - closeStarted).toBeLessThan(3000);
    expect(await outcome).toBe("connection closed");
  });
});
