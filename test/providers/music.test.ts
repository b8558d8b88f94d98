import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";
import { clickTrack, followTask, hear, loudnessOf, upload } from "./audio-support.js";
import {
  createTask,
  expectFullRefund,
  modelLanes,
  moveDeadlineToOneSecondFromNow,
  queueFault,
  vendorJobOf,
  vendorSubmits,
} from "./video-support.js";

// Music through the real worker and the emulated vendors over HTTP: vendorA (one synchronous call, one song in
// the audio_setting asked for) and vendorG (a task followed by polling, two tracks). Every track is downloaded
// and listened to: its format, rate and length; vocals heard above the backing track's band, or not for an
// instrumental; a reference recording's tempo, length and loudness carried into the song. Then the rules only
// decoded media can check, and every scripted fault of both protocols.

vi.setConfig({ maxConcurrency: 20, testTimeout: 90_000 });
const onModel = modelLanes();

const T2M = "/v1/music/text-to-music";
const R2M = "/v1/music/reference-audio-to-music";
const A = "vendorA-music-3.0";
const G = "vendorG-6";
// Above -48 dB in the 1.5–4 kHz band a voice is singing; the backing track alone stays below -60 dB there.
const VOICE_HEARD_DB = -48;
const SILENT_BAND_DB = -60;

// Scripted faults are taken by whichever task of the model reaches the emulator next, so they get a service of
// their own and the songs above run beside them undisturbed.
let h: Harness;
let faulty: Harness;
beforeAll(async () => {
  const options = { worker: true, credits: "1000", env: { WORKER_POLL_INTERVAL_MS: "100" } };
  [h, faulty] = await Promise.all([startHarness(options), startHarness(options)]);
});
afterAll(async () => Promise.all([h?.close(), faulty?.close()]));

async function succeeded(path: string, body: Record<string, unknown>) {
  const created = await createTask(h, path, body);
  const { task, percents } = await followTask(h, created.task_id);
  expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
  expect(task.output.clips).toEqual(task.output.artifacts);
  return { task, percents };
}

describe.concurrent("vendorA music (synchronous)", () => {
  it("sings the given lyrics in the audio_setting asked for, one clip, charged its track price", async () => {
    const lyrics = "[Verse]\nCity lights are calling me\nDancing down the avenue";
    const { task } = await succeeded(T2M, {
      model: A,
      prompt: "upbeat synth pop",
      lyrics,
      title: "Avenue",
      model_options: { vendorA: { audio_setting: { format: "wav", sample_rate: 24000, bitrate: 128000 } } },
    });
    expect(task.output).toMatchObject({ type: "text_to_music", title: "Avenue", lyrics });
    expect(task.output.clips).toHaveLength(1);
    const clip = task.output.clips[0];
    expect(clip).toMatchObject({ kind: "audio", format: "wav", content_type: "audio/wav", sample_rate: 24000, channels: 1 });
    const heard = await hear(clip);
    expect(heard.probe).toMatchObject({ container: "wav", sampleRate: 24000, channels: 1 });
    expect(heard.probe.durationSeconds).toBeCloseTo(clip.duration_seconds, 1);
    // An intro bar, a bar per line (the marker is not sung), an outro bar, at upbeat's 140 BPM: at least 8 bars.
    expect(heard.probe.durationSeconds).toBeGreaterThan(13);
    expect(heard.bpm).toBeGreaterThanOrEqual(136);
    expect(heard.bpm).toBeLessThanOrEqual(144);
    expect(heard.vocalBandDb).toBeGreaterThan(VOICE_HEARD_DB);
    expect(task.billing).toMatchObject({ charged_credits: "0.150000", net_charged_credits: "0.150000" });
    expect(task.usage.audio_seconds).toBe(Math.ceil(clip.duration_seconds));
  });

  it("writes its own lyrics from the prompt when given none, as MP3 at the default 44.1 kHz or raw PCM", async () => {
    const [mp3, pcm] = await Promise.all([
      succeeded(T2M, { model: A, prompt: "slow ballad about lighthouses" }),
      succeeded(T2M, { model: A, prompt: "slow ballad about lighthouses", model_options: { vendorA: { audio_setting: { format: "pcm", sample_rate: 16000 } } } }),
    ]);
    expect(mp3.task.output.lyrics).toContain("slow ballad about lighthouses");
    const song = await hear(mp3.task.output.clips[0]);
    expect(song.probe).toMatchObject({ container: "mp3", sampleRate: 44100 });
    expect(song.vocalBandDb).toBeGreaterThan(VOICE_HEARD_DB);
    // "slow" sets 80 BPM.
    expect(song.bpm).toBeGreaterThanOrEqual(77);
    expect(song.bpm).toBeLessThanOrEqual(83);
    const raw = await hear(pcm.task.output.clips[0]);
    expect(pcm.task.output.clips[0]).toMatchObject({ format: "pcm", content_type: "audio/L16", sample_rate: 16000 });
    expect(raw.probe.durationSeconds).toBeCloseTo(song.probe.durationSeconds, 0);
    expect(raw.vocalBandDb).toBeGreaterThan(VOICE_HEARD_DB);
  });
});

describe.concurrent("vendorG music (task and polling)", () => {
  it("makes two different instrumental tracks without vocals, showing its stages as progress", async () => {
    const { task, percents } = await succeeded(T2M, { model: G, prompt: "driving techno with a deep bassline", instrumental: true });
    expect(task.output).toMatchObject({ type: "text_to_music", lyrics: null, title: "Driving Techno With A" });
    expect(task.output.clips).toHaveLength(2);
    const tracks = await Promise.all(task.output.clips.map(hear));
    for (const track of tracks) {
      expect(track.probe).toMatchObject({ container: "mp3", sampleRate: 44100 });
      expect(track.vocalBandDb).toBeLessThan(SILENT_BAND_DB);
      expect(track.bpm).toBeGreaterThanOrEqual(136);
    }
    expect(tracks[0]!.bytes.equals(tracks[1]!.bytes)).toBe(false);
    expect(percents).toEqual(expect.arrayContaining([40, 70]));
    expect(task.billing).toMatchObject({ charged_credits: "0.100000", net_charged_credits: "0.100000" });
  });

  it("sings lyrics in custom mode, with the singer asked for", async () => {
    const lyrics = "Rain on the window\nCoffee gone cold";
    const [male, female] = await Promise.all(
      ["m", "f"].map((gender) => succeeded(T2M, { model: G, prompt: "indie folk", lyrics, model_options: { vendorG: { vocal_gender: gender } } })),
    );
    expect(male!.task.output.lyrics).toBe(lyrics);
    const [low, high] = await Promise.all([hear(male!.task.output.clips[0]), hear(female!.task.output.clips[0])]);
    expect(low.vocalBandDb).toBeGreaterThan(VOICE_HEARD_DB);
    expect(high.vocalBandDb).toBeGreaterThan(VOICE_HEARD_DB);
    // Heard above the backing track's band, the female singer is far higher than the male one.
    expect(high.singerHz ?? 0).toBeGreaterThan((low.singerHz ?? Infinity) * 1.5);
  });
});

describe.concurrent("reference audio to music", () => {
  it("follows the reference's tempo, length and loudness on vendorA (auto)", async () => {
    const reference = await clickTrack(100, 20, 0.08);
    const { task } = await succeeded(R2M, { reference_audio: await upload(h, reference, "reference.wav"), prompt: "warm soul" });
    expect(task).toMatchObject({ resolved_model: A, billing: { charged_credits: "0.200000" } });
    expect(task.output.type).toBe("reference_audio_to_music");
    const song = await hear(task.output.clips[0]);
    expect(song.probe.durationSeconds).toBeCloseTo(20, 0);
    expect(song.bpm).toBeGreaterThanOrEqual(97);
    expect(song.bpm).toBeLessThanOrEqual(103);
    expect(Math.abs(song.loudnessDb - (await loudnessOf(reference)))).toBeLessThan(2);
  });

  it("follows another reference on vendorG, which auto picks for an instrumental", async () => {
    const reference = await clickTrack(150, 8, 0.6, "ogg");
    const dataUri = `data:audio/ogg;base64,${reference.toString("base64")}`;
    const { task } = await succeeded(R2M, { reference_audio: dataUri, prompt: "garage rock", instrumental: true });
    expect(task).toMatchObject({ resolved_model: G, output: { type: "reference_audio_to_music" } });
    expect(task.output.clips).toHaveLength(2);
    for (const song of await Promise.all(task.output.clips.map(hear))) {
      expect(song.probe.durationSeconds).toBeCloseTo(8, 0);
      expect(song.bpm).toBeGreaterThanOrEqual(146);
      expect(song.bpm).toBeLessThanOrEqual(154);
      expect(Math.abs(song.loudnessDb - (await loudnessOf(reference)))).toBeLessThan(2);
      expect(song.vocalBandDb).toBeLessThan(SILENT_BAND_DB);
    }
  });

  // A data URI's recording is decoded at admission: auto passes over a model whose input limits it breaks.
  it.each([
    ["too short for vendorA (10 s at least)", () => clickTrack(100, 7, 0.3), "unsupported_media_duration"],
    ["in a format vendorA does not take", () => clickTrack(100, 12, 0.3, "ogg"), "unsupported_media_format"],
  ])("admits a recording %s on vendorG, saying it passed over vendorA", async (_name, make, code) => {
    const reference = `data:audio/wav;base64,${(await make()).toString("base64")}`;
    const created = await h.request("POST", R2M, { body: { reference_audio: reference, prompt: "jazz trio" }, idempotencyKey: randomUUID() });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    expect(created.body).toMatchObject({ resolved_model: G });
    expect(created.body.model_selection_reason).toContain(`skipped ${A}`);
    expect(code).toMatch(/^unsupported_media_/);
  });

  it("refuses at admission a recording no music model takes, naming each model's limit, with nothing held", async () => {
    const reference = `data:audio/wav;base64,${(await clickTrack(100, 4, 0.3)).toString("base64")}`;
    const refused = await h.request("POST", R2M, { body: { reference_audio: reference, prompt: "jazz trio", instrumental: true }, idempotencyKey: randomUUID() });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "no_eligible_model", retryable: false });
    expect(refused.body.error.details.candidate_failures).toContainEqual(
      expect.objectContaining({ model: G, code: "unsupported_media_duration", param: "/reference_audio", supported: { min_seconds: 6, max_seconds: 480 } }),
    );
  });
});

describe("admission rules the music adapters rely on", () => {
  const post = (body: Record<string, unknown>) => h.request("POST", T2M, { body: { prompt: "surf rock", ...body }, idempotencyKey: randomUUID() });

  it("refuses turning off vendorG's custom mode with lyrics, and vendorA's lyrics optimizer without lyrics", async () => {
    const custom = await post({ model: G, lyrics: "la la", model_options: { vendorG: { custom_mode: false } } });
    expect(custom.status).toBe(422);
    expect(custom.body.error).toMatchObject({ code: "invalid_request", param: "/model_options/vendorG/custom_mode" });
    const optimizer = await post({ model: A, model_options: { vendorA: { lyrics_optimizer: false } } });
    expect(optimizer.status).toBe(422);
    expect(optimizer.body.error).toMatchObject({ code: "invalid_request", param: "/model_options/vendorA/lyrics_optimizer" });
    expect((await post({ model: A, lyrics: "la la", model_options: { vendorA: { lyrics_optimizer: false } } })).status).toBe(202);
  });
});

// The service gives up on transient vendor failures after six attempts.
const ATTEMPTS = 6;
const FAULTS = [
  { kind: "http_500", code: "model_request_failed", retryable: true, submits: ATTEMPTS },
  { kind: "http_429", code: "model_rate_limited", retryable: true, submits: ATTEMPTS },
  { kind: "malformed", code: "model_request_failed", retryable: true, submits: ATTEMPTS },
  { kind: "safety", code: "safety_rejected", retryable: false, submits: 1 },
  { kind: "content_filtered", code: "content_filtered", retryable: false, submits: 1 },
  { kind: "unknown_status", code: "model_request_failed", retryable: true, submits: 1 },
  { kind: "bad_download", code: "model_output_invalid", retryable: true, submits: 1 },
];
const FAULT_WORDING: Record<string, Record<string, string>> = {
  vendorA: { safety: "flagged by safety review", content_filtered: "generated music blocked", unknown_status: "status 7" },
  vendorG: { safety: "SENSITIVE_WORD_ERROR", content_filtered: "SENSITIVE_WORD_ERROR", unknown_status: '"ARCHIVED"' },
};

describe.concurrent("vendor faults end music tasks with the right code and a full refund", () => {
  for (const [family, model] of [["vendorA", A], ["vendorG", G]] as const) {
    for (const fault of FAULTS) {
      it(`${model}: ${fault.kind} → ${fault.code}`, () =>
        onModel(model, async () => {
          const before = await vendorSubmits(faulty, family, model);
          await queueFault(faulty, { family, model, kind: fault.kind, times: fault.submits, ...(fault.kind === "http_429" ? { retry_after_seconds: 0 } : {}) });
          const created = await createTask(faulty, T2M, { model, prompt: "bossa nova", lyrics: "Sunny afternoon" });
          const { task } = await followTask(faulty, created.task_id);
          expect(task.error).toMatchObject({ code: fault.code, retryable: fault.retryable });
          const wording = FAULT_WORDING[family]?.[fault.kind];
          if (wording) expect(task.error.message).toContain(wording);
          expect(task.output).toBeNull();
          expect((await vendorSubmits(faulty, family, model)) - before).toBe(fault.submits);
          await expectFullRefund(faulty, task);
        }),
      );
    }
  }

  it("a vendorG task that never finishes cannot be canceled and ends at its deadline, refunded", () =>
    onModel(G, async () => {
      await queueFault(faulty, { family: "vendorG", model: G, kind: "hang" });
      const created = await createTask(faulty, T2M, { model: G, prompt: "drone ambient", instrumental: true });
      await vendorJobOf(faulty, created.task_id);
      const cancel = await faulty.request("POST", `/v1/tasks/${created.task_id}/cancel`);
      expect(cancel.status).toBe(409);
      expect(cancel.body.error.details.action).toBe("keep_polling");
      await moveDeadlineToOneSecondFromNow(faulty, created.task_id);
      const { task } = await followTask(faulty, created.task_id);
      expect(task.error).toMatchObject({ code: "model_timeout", retryable: true });
      await expectFullRefund(faulty, task);
    }));
});
