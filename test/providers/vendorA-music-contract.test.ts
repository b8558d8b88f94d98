import { describe, expect, it } from "vitest";
import { probeMedia } from "../../core/media/probe.js";
import type { ProviderRequestOf } from "../../core/providers/served-capabilities.js";
import { generateVendorAMusic } from "../../core/providers/vendorA/music.js";
import { emulatorBehindRecorder, emulatorCall, loadExchangeReference, vendorAEndpoint as endpointAt } from "./contract-support.js";

// vendorA music against the copy of its reference kept in the repo (docs/providers/reference/vendorA-music-generation.json):
// the adapter's text-to-music requests and the emulator's answers must fit it, and its request example must go
// through the emulator.

const reference = loadExchangeReference("vendorA-music-generation.json");

const { emulator, proxy } = emulatorBehindRecorder(["authorization"]);

function musicRequest(input: Record<string, unknown>): ProviderRequestOf<"text_to_music"> {
  return { taskId: "task_contract", capability: "text_to_music", model: "vendorA-music-3.0", input: { prompt: "upbeat synth pop", model: "vendorA-music-3.0", instrumental: false, ...input } };
}

async function emulatorMusic(body: unknown): Promise<{ data?: { audio?: string; status?: number }; base_resp: { status_code: number } }> {
  const { status, json } = await emulatorCall<{ data?: { audio?: string; status?: number }; base_resp: { status_code: number } }>(emulator.url, "POST", "/vendorA/v1/music_generation", body, { authorization: "Bearer contract-key" });
  expect(status).toBe(200);
  return json;
}

describe("the reference copy", () => {
  it("accepts its request example, and refuses our model id and fields the vendor does not take", () => {
    const example = reference.examples.request!;
    expect(reference.request.safeParse(example).success).toBe(true);
    expect(reference.request.safeParse({ ...example, model: "vendorA-music-3.0" }).success).toBe(false);
    expect(reference.request.safeParse({ ...example, title: "Avenue" }).success).toBe(false);
  });
});

describe("the emulator answers as the reference describes", () => {
  it("makes the reference's example: a song behind a URL in data.audio", async () => {
    const answer = await emulatorMusic(reference.examples.request);
    expect(reference.response.safeParse(answer).success).toBe(true);
    expect(answer).toMatchObject({ base_resp: { status_code: 0 }, data: { status: 2 } });
    const song = await fetch(answer.data?.audio ?? "");
    expect(await probeMedia(Buffer.from(await song.arrayBuffer()))).toMatchObject({ codec: "mp3", hasAudio: true });
  }, 120_000);

  it.each([
    ["our own model id", { model: "vendorA-music-3.0" }],
    ["a title, which the vendor does not take", { title: "Avenue" }],
  ])("refuses %s with 2013", async (_case, change) => {
    expect((await emulatorMusic({ ...reference.examples.request, ...change })).base_resp.status_code).toBe(2013);
  });
});

describe("the adapter's requests fit the reference", () => {
  it("sends the vendor's model id, no title, and asks for a URL; the request's title is the song's", async () => {
    const outcome = await generateVendorAMusic(endpointAt(`${proxy.url}/vendorA`), musicRequest({ lyrics: "[Verse]\nLights on", title: "Avenue" }), AbortSignal.timeout(120_000));
    const sent = proxy.bodies[0] as Record<string, unknown>;
    expect(reference.request.safeParse(sent).success).toBe(true);
    expect(sent).toMatchObject({ model: "music-3.0", output_format: "url", lyrics: "[Verse]\nLights on", lyrics_optimizer: false });
    expect(sent.title).toBeUndefined();
    expect(outcome).toMatchObject({ status: "done", outputs: [{ kind: "audio", format: "mp3" }], data: { title: "Avenue" } });
  }, 150_000);

  it("without lyrics, asks the vendor to write them (lyrics_optimizer)", async () => {
    await generateVendorAMusic(endpointAt(`${proxy.url}/vendorA`), musicRequest({}), AbortSignal.timeout(120_000));
    const sent = proxy.bodies[0] as Record<string, unknown>;
    expect(reference.request.safeParse(sent).success).toBe(true);
    expect(sent).toMatchObject({ model: "music-3.0", lyrics_optimizer: true });
    expect(sent.lyrics).toBeUndefined();
  }, 150_000);

  it("reference mode is not on the reference yet: refer_audio_url is the emulator's field, not the vendor's", () => {
    expect(reference.request.safeParse({ ...reference.examples.request, refer_audio_url: "https://files.example/r.mp3" }).success).toBe(false);
  });
});
