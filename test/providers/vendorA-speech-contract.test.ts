import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { DEFAULT_VENDOR_IDS, mergeVendorIds, vendorIdProblems } from "../../core/catalog/vendor-ids.js";
import { PRESET_VOICES } from "../../core/catalog/voices.js";
import { loadConfig } from "../../core/config.js";
import { probeMedia } from "../../core/media/probe.js";
import type { ProviderRequestOf } from "../../core/providers/served-capabilities.js";
import { ProviderFailure } from "../../core/providers/types.js";
import { synthesizeSpeech } from "../../core/providers/vendorA/speech.js";
import { speechParts, VENDOR_MAX_CALL_CHARACTERS } from "../../core/providers/vendorA/speech-assembly.js";
import { emulatorBehindRecorder, emulatorCall, loadReference, schemaOf, startRecorder, vendorAEndpoint as endpointAt } from "./contract-support.js";

// vendorA's T2A v2 against the copy of its reference kept in the repo (docs/providers/reference/vendorA-t2a-v2.json):
// the adapter's requests and the emulator's answers must fit its schemas, and its own examples must go through
// both. A disagreement between the emulator and the reference fails here.

interface Reference {
  request: object;
  response: object;
  examples: { request: Record<string, unknown>; response: Record<string, unknown> };
}

const reference = loadReference<Reference>("vendorA-t2a-v2.json");
const requestSchema = schemaOf(reference.request);
const responseSchema = schemaOf(reference.response);

interface T2aAnswer {
  data?: { audio?: string; status?: number };
  extra_info?: { audio_format?: string; audio_size?: number; audio_sample_rate?: number };
  base_resp: { status_code: number; status_msg: string };
}

const { emulator, proxy } = emulatorBehindRecorder(["authorization"]);

function speechRequest(input: Record<string, unknown>, model = "vendorA-speech-2.8-hd"): ProviderRequestOf<"text_to_speech"> {
  return {
    taskId: "task_contract",
    capability: "text_to_speech",
    model,
    input: { voice: "en_female_aria", input: "Contract check.", model, format: "mp3", speed: 1, volume: 1, pitch: 0, ...input },
  };
}

async function emulatorT2a(body: unknown): Promise<T2aAnswer> {
  const { status, json } = await emulatorCall<T2aAnswer>(emulator.url, "POST", "/vendorA/v1/t2a_v2", body, { authorization: "Bearer contract-key" });
  expect(status).toBe(200);
  return json;
}

describe("the reference copy", () => {
  it("accepts its own request and response examples", () => {
    expect(requestSchema.safeParse(reference.examples.request).success).toBe(true);
    expect(responseSchema.safeParse(reference.examples.response).success).toBe(true);
  });

  it("refuses what the old adapter sent: our model id, a URL field the vendor does not answer, language codes", () => {
    const ours = { ...reference.examples.request, model: "vendorA-speech-2.8-hd" };
    expect(requestSchema.safeParse(ours).success).toBe(false);
    expect(requestSchema.safeParse({ ...reference.examples.request, language_boost: "en" }).success).toBe(false);
    expect(requestSchema.safeParse({ ...reference.examples.request, output_format: "audio_url" }).success).toBe(false);
    expect(requestSchema.safeParse({ ...reference.examples.request, audio_url: "https://files.example/a.mp3" }).success).toBe(false);
  });
});

describe("the emulator answers the reference's request example as the reference does", () => {
  it("returns hex audio in data.audio by default, decoding as the requested mp3", async () => {
    const answer = await emulatorT2a(reference.examples.request);
    expect(responseSchema.safeParse(answer).success).toBe(true);
    expect(answer.base_resp).toEqual({ status_code: 0, status_msg: "success" });
    expect(answer.data?.status).toBe(2);
    expect(answer.data?.audio).toMatch(/^([0-9a-f]{2})+$/);
    const bytes = Buffer.from(answer.data?.audio ?? "", "hex");
    expect(bytes.length).toBe(answer.extra_info?.audio_size);
    expect(await probeMedia(bytes)).toMatchObject({ codec: "mp3", sampleRate: 32000, hasAudio: true });
  });

  it("returns a URL in data.audio when output_format is url", async () => {
    const answer = await emulatorT2a({ ...reference.examples.request, output_format: "url" });
    expect(responseSchema.safeParse(answer).success).toBe(true);
    const download = await fetch(answer.data?.audio ?? "");
    expect(download.status).toBe(200);
    expect(await probeMedia(Buffer.from(await download.arrayBuffer()))).toMatchObject({ codec: "mp3", hasAudio: true });
  });

  it.each([
    ["our own model id", { model: "vendorA-speech-2.8-hd" }, 2013],
    ["our own preset voice id", { voice_setting: { voice_id: "en_female_aria", speed: 1, vol: 1, pitch: 0 } }, 2054],
    ["a language code instead of a language name", { language_boost: "en" }, 2013],
    ["a pitch outside -12..12", { voice_setting: { voice_id: "male-qn-qingse", pitch: 13 } }, 2013],
  ])("refuses %s with status_code %i", async (_case, change, statusCode) => {
    const answer = await emulatorT2a({ ...reference.examples.request, ...change });
    expect(responseSchema.safeParse(answer).success).toBe(true);
    expect(answer.base_resp.status_code).toBe(statusCode);
  });
});

describe("the adapter's requests fit the reference", () => {
  it.each(PRESET_VOICES.flatMap((voice) => voice.models.map((model) => ({ voice: voice.voiceId, model }))))(
    "sends $model with preset $voice by the vendor's ids",
    async ({ voice, model }) => {
      const outcome = await synthesizeSpeech(endpointAt(`${proxy.url}/vendorA`), speechRequest({ voice }, model), AbortSignal.timeout(60_000));
      const sent = proxy.bodies[0] as { model: string; voice_setting: { voice_id: string } };
      expect(requestSchema.safeParse(sent).success).toBe(true);
      expect(sent.model).toBe(DEFAULT_VENDOR_IDS.vendorA?.models[model]);
      expect(sent.voice_setting.voice_id).toBe(DEFAULT_VENDOR_IDS.vendorA?.voices[voice]);
      expect(outcome).toMatchObject({ status: "done", outputs: [{ kind: "audio", format: "mp3" }] });
    },
  );

  it("asks for a URL, names the language, turns pitch into semitones and leaves neutral out", async () => {
    const request = speechRequest({ language: "fr-CA", pitch: 0.5, emotion: "neutral", format: "wav", sample_rate: 24000 });
    const outcome = await synthesizeSpeech(endpointAt(`${proxy.url}/vendorA`), request, AbortSignal.timeout(60_000));
    const sent = proxy.bodies[0] as Record<string, unknown>;
    expect(requestSchema.safeParse(sent).success).toBe(true);
    expect(sent).toMatchObject({
      output_format: "url",
      stream: false,
      language_boost: "French",
      voice_setting: { pitch: 6 },
      audio_setting: { format: "wav", sample_rate: 24000, channel: 1 },
    });
    expect((sent.voice_setting as Record<string, unknown>).emotion).toBeUndefined();
    const url = outcome.status === "done" ? (outcome.outputs[0]?.url ?? "") : "";
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/vendorA\/v1\/files\//);
    expect(await probeMedia(Buffer.from(await (await fetch(url)).arrayBuffer()))).toMatchObject({ container: "wav", sampleRate: 24000 });
  });

  it("sends language_boost auto without a language, and a cloned voice by its own id", async () => {
    const clone = "voice_01contractclone";
    await synthesizeSpeech(endpointAt(`${proxy.url}/vendorA`), speechRequest({ voice: clone }), AbortSignal.timeout(60_000)).catch(() => undefined);
    const sent = proxy.bodies[0] as { language_boost: string; voice_setting: { voice_id: string } };
    expect(requestSchema.safeParse(sent).success).toBe(true);
    expect(sent.language_boost).toBe("auto");
    expect(sent.voice_setting.voice_id).toBe(clone);
  });
});

describe("what the vendor does not make, made on our side from its WAV", () => {
  // The joined speech is handed over as a local file, which its holder removes.
  async function decodedOutput(outcome: Awaited<ReturnType<typeof synthesizeSpeech>>) {
    const file = outcome.status === "done" ? outcome.outputs[0]?.file : undefined;
    if (!file) throw new Error("no file handed over");
    const bytes = await readFile(file.path);
    await file.dispose();
    expect(existsSync(file.path)).toBe(false);
    return { path: file.path, probe: await probeMedia(bytes) };
  }

  it("opus: asks the vendor for WAV at the requested rate and encodes Ogg Opus", async () => {
    const outcome = await synthesizeSpeech(endpointAt(`${proxy.url}/vendorA`), speechRequest({ format: "opus", sample_rate: 24000 }), AbortSignal.timeout(60_000));
    const sent = proxy.bodies[0] as Record<string, unknown>;
    expect(requestSchema.safeParse(sent).success).toBe(true);
    expect(sent).toMatchObject({ output_format: "url", audio_setting: { format: "wav", sample_rate: 24000, channel: 1 } });
    expect(outcome).toMatchObject({ status: "done", outputs: [{ kind: "audio", format: "opus", sampleRate: 24000 }] });
    const { path, probe } = await decodedOutput(outcome);
    expect(path).toMatch(/\.opus$/);
    expect(probe).toMatchObject({ container: "ogg", codec: "opus", hasAudio: true });
  });

  it("opus at 48 kHz: asks for the vendor's highest rate, 44.1 kHz", async () => {
    const outcome = await synthesizeSpeech(endpointAt(`${proxy.url}/vendorA`), speechRequest({ format: "opus", sample_rate: 48000 }), AbortSignal.timeout(60_000));
    expect((proxy.bodies[0] as { audio_setting: unknown }).audio_setting).toEqual({ format: "wav", sample_rate: 44100, channel: 1 });
    expect((await decodedOutput(outcome)).probe).toMatchObject({ codec: "opus", sampleRate: 48000 });
  });

  it("a text longer than one call takes: parts of at most 10,000 characters, each a request of the reference, joined", async () => {
    const text = `Hello there.${" ".repeat(VENDOR_MAX_CALL_CHARACTERS)}Good night.`;
    const outcome = await synthesizeSpeech(endpointAt(`${proxy.url}/vendorA`), speechRequest({ input: text }), AbortSignal.timeout(120_000));
    expect(proxy.bodies).toHaveLength(2);
    for (const sent of proxy.bodies as { text: string }[]) {
      expect(requestSchema.safeParse(sent).success).toBe(true);
      expect([...sent.text].length).toBeLessThanOrEqual(VENDOR_MAX_CALL_CHARACTERS);
    }
    // A part that is only blanks is silence, not a call.
    expect((proxy.bodies as { text: string }[]).map((sent) => sent.text)).toEqual(["Hello there.", "Good night."]);
    expect(outcome).toMatchObject({ status: "done", outputs: [{ kind: "audio", format: "mp3", sampleRate: 32000 }] });
    expect((await decodedOutput(outcome)).probe).toMatchObject({ codec: "mp3", sampleRate: 32000, hasAudio: true });
  }, 150_000);

  it("splits a text longer than one call takes at sentence ends, then spaces, each part within the limit", () => {
    expect(VENDOR_MAX_CALL_CHARACTERS).toBe(10_000);
    expect(speechParts("One two. Three four. Five", 12)).toEqual(["One two.", " Three four.", " Five"]);
    expect(speechParts("alpha beta gamma delta", 11)).toEqual(["alpha beta ", "gamma delta"]);
    expect(speechParts("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
    const long = "Words go here. ".repeat(1_400);
    const parts = speechParts(long);
    expect(parts.length).toBe(3);
    expect(parts.every((part) => [...part].length <= VENDOR_MAX_CALL_CHARACTERS)).toBe(true);
    expect(parts.join("")).toBe(long);
  });
});

describe("the reference's response example replayed through the adapter", () => {
  it("takes the example with its audio as a URL, as output_format url answers it", async () => {
    const audioUrl = "https://files.vendor.example/audio/abc.mp3";
    const vendor = await startRecorder(async (_call, _request, reply) => {
      const example = reference.examples.response as { data: Record<string, unknown> };
      reply.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ...example, data: { ...example.data, audio: audioUrl } }));
    });
    try {
      const outcome = await synthesizeSpeech(endpointAt(vendor.url), speechRequest({}), AbortSignal.timeout(60_000));
      expect(outcome).toEqual({ status: "done", outputs: [{ url: audioUrl, kind: "audio", format: "mp3", sampleRate: 32000 }] });
    } finally {
      await vendor.close();
    }
  });

  it("refuses the example verbatim (hex audio although a URL was asked for) as model_request_failed", async () => {
    const vendor = await startRecorder(async (_call, _request, reply) => {
      reply.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reference.examples.response));
    });
    try {
      const failure = await synthesizeSpeech(endpointAt(vendor.url), speechRequest({}), AbortSignal.timeout(60_000)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProviderFailure);
      expect(failure).toMatchObject({ code: "model_request_failed", transient: false });
    } finally {
      await vendor.close();
    }
  });
});

describe("the id map at start", () => {
  const base = {
    DATABASE_URL: "postgres://x/y",
    ARTIFACT_URL_SECRET: "s".repeat(32),
    CALLBACK_SECRET_ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"),
    VENDOR_A_BASE_URL: "https://vendor-a.example",
    VENDOR_A_API_KEY: "key",
  };

  it("gives a live family its vendor ids, with VENDOR_ID_MAP entries replacing defaults", () => {
    const config = loadConfig({ ...base, VENDOR_ID_MAP: JSON.stringify({ vendorA: { voices: { en_female_aria: "my_custom_voice" } } }) });
    expect(config.providers.vendorA?.ids?.voices.en_female_aria).toBe("my_custom_voice");
    expect(config.providers.vendorA?.ids?.voices.en_male_atlas).toBe(DEFAULT_VENDOR_IDS.vendorA?.voices.en_male_atlas);
    expect(config.providers.vendorA?.ids?.models["vendorA-speech-2.8-hd"]).toBe("speech-2.8-hd");
  });

  it.each([
    ["not JSON", "{vendorA", /VENDOR_ID_MAP/],
    ["an empty vendor id", JSON.stringify({ vendorA: { models: { "vendorA-speech-2.8-hd": "" } } }), /VENDOR_ID_MAP/],
    ["a model we do not have", JSON.stringify({ vendorA: { models: { "vendorA-speech-9": "speech-9" } } }), /vendorA-speech-9/],
    ["a voice we do not have", JSON.stringify({ vendorA: { voices: { xx_nobody: "Nobody" } } }), /xx_nobody/],
  ])("stops on %s, naming it", (_case, value, message) => {
    expect(() => loadConfig({ ...base, VENDOR_ID_MAP: value })).toThrow(message);
  });

  it("names a live model and a preset voice left without a vendor id", () => {
    const incomplete = { vendorA: { models: { "vendorA-speech-2.8-hd": "speech-2.8-hd" }, voices: {} } };
    const problems = vendorIdProblems(incomplete, ["vendorA"]);
    expect(problems).toContain("vendorA model vendorA-speech-2.8-turbo has no vendor model id");
    expect(problems).toContain("vendorA preset voice en_female_aria has no vendor voice id");
    expect(vendorIdProblems(mergeVendorIds({}), ["vendorA"])).toEqual([]);
  });
});
