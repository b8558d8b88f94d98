import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProviderEndpoint } from "../../core/config.js";
import { probeMedia } from "../../core/media/probe.js";
import type { ProviderRequestOf } from "../../core/providers/served-capabilities.js";
import { ProviderFailure } from "../../core/providers/types.js";
import { generateVendorAMusic } from "../../core/providers/vendorA/music.js";
import { startEmulator, type RunningEmulator } from "../../emulator/server.js";

// vendorA music answers as its speech does (docs/providers/vendorA.md, "Music"): the song in `data.audio`, hex by
// default and a download URL with `output_format: "url"`, which the adapter asks for. Never `data.audio_url`.

const MODEL = "vendorA-music-3.0";
// What the vendor calls it (core/catalog/vendors/vendorA/ids.ts).
const VENDOR_MODEL = "music-3.0";
const SETTING = { sample_rate: 44100, bitrate: 256000, format: "mp3" };

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});

afterAll(() => emulator.close());

function musicRequest(): ProviderRequestOf<"text_to_music"> {
  return {
    taskId: "task_music_contract",
    capability: "text_to_music",
    model: MODEL,
    input: { prompt: "upbeat synth pop", model: MODEL, lyrics: "[Verse]\nLights on", instrumental: false },
  };
}

async function emulatorMusic(body: Record<string, unknown>): Promise<{ data?: { audio?: string; status?: number }; base_resp: { status_code: number } }> {
  const response = await fetch(`${emulator.url}/vendorA/v1/music_generation`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer contract-key" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { data?: { audio?: string; status?: number }; base_resp: { status_code: number } };
}

describe("vendorA music audio", () => {
  it("the emulator answers hex in data.audio without output_format", async () => {
    const answer = await emulatorMusic({ model: VENDOR_MODEL, prompt: "slow ballad", lyrics: "[Verse]\nQuiet night", audio_setting: SETTING });
    expect(answer.base_resp.status_code).toBe(0);
    expect(answer.data).not.toHaveProperty("audio_url");
    expect(answer.data?.audio).toMatch(/^([0-9a-f]{2})+$/);
    expect(await probeMedia(Buffer.from(answer.data?.audio ?? "", "hex"))).toMatchObject({ codec: "mp3", hasAudio: true });
  });

  it("the adapter asks for a URL and takes the song from data.audio", async () => {
    const endpoint: ProviderEndpoint = { baseUrl: `${emulator.url}/vendorA`, apiKey: "contract-key" };
    const outcome = await generateVendorAMusic(endpoint, musicRequest(), AbortSignal.timeout(120_000));
    expect(outcome).toMatchObject({ status: "done", outputs: [{ kind: "audio", format: "mp3" }] });
    const url = outcome.status === "done" ? (outcome.outputs[0]?.url ?? "") : "";
    expect(url).toMatch(new RegExp(`^${emulator.url}/vendorA/v1/files/`));
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(await probeMedia(Buffer.from(await download.arrayBuffer()))).toMatchObject({ codec: "mp3", hasAudio: true });
  });

  it("the adapter refuses hex audio (it asked for a URL) as model_request_failed", async () => {
    const server: Server = createServer((_request, reply) => {
      reply
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ data: { audio: "fffb9064", status: 2 }, base_resp: { status_code: 0, status_msg: "success" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const failure = await generateVendorAMusic({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "k" }, musicRequest(), AbortSignal.timeout(60_000)).catch(
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(ProviderFailure);
      expect(failure).toMatchObject({ code: "model_request_failed", transient: false });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
