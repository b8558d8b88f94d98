import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";
import { followTask, hear, recording, upload, voiceLike } from "./audio-support.js";
import { createTask, expectFullRefund, modelLanes, queueFault, vendorSubmits } from "./video-support.js";

// Voice cloning through the real worker and the emulated vendorA over HTTP: the sample is decoded and its
// length checked before the vendor is called; the vendor hears the sample's pitch, registers the voice and
// activates it; the voice row turns active with the task's success (or is retired with its failure, and a
// voice deleted meanwhile stays deleted); and speech with the new voice_id speaks in the cloned voice.

vi.setConfig({ maxConcurrency: 20, testTimeout: 90_000 });
const onModel = modelLanes();

const CLONE = "vendorA-voice-clone";

// Scripted faults are taken by whichever clone reaches the emulator next, so the tests that script them get a
// service of their own.
let h: Harness;
let faulty: Harness;
beforeAll(async () => {
  const options = { worker: true, credits: "1000", env: { WORKER_POLL_INTERVAL_MS: "100" } };
  [h, faulty] = await Promise.all([startHarness(options), startHarness(options)]);
});
afterAll(async () => Promise.all([h?.close(), faulty?.close()]));

const voiceIdOf = (taskId: string) => `voice_${taskId.slice("task_".length)}`;

async function clone(sample: unknown, extra: Record<string, unknown> = {}, harness = h) {
  const created = await createTask(harness, "/v1/voices", { sample, display_name: "Narrator", consent_attested: true, ...extra });
  return { created, ...(await followTask(harness, created.task_id)) };
}

async function speak(voice: string) {
  const created = await createTask(h, "/v1/audio/speech", { voice, input: "Good morning, and welcome to the evening news.", format: "wav" });
  const { task } = await followTask(h, created.task_id);
  expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
  return hear(task.output.artifacts[0]);
}

describe.concurrent("cloning a voice and speaking with it", () => {
  it("clones a low and a high voice; each then speaks at its own pitch, unlike a preset", async () => {
    const [low, high] = await Promise.all([
      clone(await upload(h, await voiceLike(100, 12), "low.mp3")),
      clone(`data:audio/wav;base64,${(await voiceLike(230, 15, "wav")).toString("base64")}`, { language: "en-GB", display_name: "Bright" }),
    ]);
    for (const { task } of [low, high]) {
      expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
      expect(task.output).toMatchObject({ type: "voice_clone", voice_id: voiceIdOf(task.task_id) });
      expect(task.billing).toMatchObject({ charged_credits: "3.000000", net_charged_credits: "3.000000" });
      // The activation, a short synthesis with the new voice, is kept as the task's preview.
      const preview = task.output.artifacts[0];
      expect(preview).toMatchObject({ kind: "audio", role: "preview", format: "mp3" });
      expect((await hear(preview)).probe.durationSeconds).toBeGreaterThan(1);
    }
    const record = await h.request("GET", `/v1/voices/${high.task.output.voice_id}`);
    expect(record.body).toMatchObject({ type: "cloned", status: "active", name: "Bright", language: "en-GB", task_id: high.task.task_id });
    expect(record.body.models).toEqual(["vendorA-speech-2.8-hd", "vendorA-speech-2.8-turbo"]);

    const [lowSpeech, highSpeech, preset] = await Promise.all([speak(low.task.output.voice_id), speak(high.task.output.voice_id), speak("en_male_atlas")]);
    expect(lowSpeech.fundamentalHz).toBeGreaterThan(80);
    expect(lowSpeech.fundamentalHz).toBeLessThan(120);
    expect(highSpeech.fundamentalHz).toBeGreaterThan(190);
    expect(highSpeech.fundamentalHz).toBeLessThan(270);
    expect(highSpeech.fundamentalHz ?? 0).toBeGreaterThan((preset.fundamentalHz ?? Infinity) * 1.6);
  });

  it.each([
    ["shorter than 10 s", () => voiceLike(120, 6), "lasts 6"],
    // A plain tone at 8 kHz keeps five minutes quick to make; its length is all that is checked.
    ["longer than 5 minutes", () => recording("0.3*sin(2*PI*120*t)", 302, "mp3", 8000), "lasts 302"],
    ["in a format the model does not take", () => voiceLike(120, 12, "flac"), "flac is not one of"],
  ])("refuses at admission an uploaded sample %s, naming /sample, with nothing held and no voice made", async (_name, make, reason) => {
    const sample = await upload(h, await make(), "sample.bin");
    const name = `Refused ${randomUUID()}`;
    const refused = await h.request("POST", "/v1/voices", {
      body: { sample, display_name: name, consent_attested: true, model: CLONE },
      idempotencyKey: randomUUID(),
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "unsupported_option", param: "/sample", retryable: false });
    expect(refused.body.error.message).toContain(reason);
    const voices = (await h.request("GET", "/v1/voices?limit=100")).body.data as { name: string }[];
    expect(voices.length).toBeGreaterThan(0);
    expect(voices.some((voice) => voice.name === name)).toBe(false);
  });
});

describe.concurrent("the voice row follows the task", () => {
  it("is pending while the vendor is retried, and retired when the clone fails", () =>
    onModel(CLONE, async () => {
      await queueFault(faulty, { family: "vendorA", model: CLONE, kind: "http_500", times: 6 });
      const created = await createTask(faulty, "/v1/voices", { sample: await upload(faulty, await voiceLike(120, 11), "s.mp3"), display_name: "Soon", consent_attested: true });
      const voiceId = voiceIdOf(created.task_id);
      const pending = await faulty.request("GET", `/v1/voices/${voiceId}`);
      expect(pending.body).toMatchObject({ status: "pending", name: "Soon" });
      const listed = await faulty.request("GET", "/v1/voices?limit=100");
      expect(listed.body.data.map((v: { voice_id: string }) => v.voice_id)).toContain(voiceId);
      const refused = await faulty.request("POST", "/v1/audio/speech", { body: { voice: voiceId, input: "Too early." }, idempotencyKey: randomUUID() });
      expect(refused.body.error.code).toBe("voice_not_found");
      const { task } = await followTask(faulty, created.task_id);
      expect(task.error).toMatchObject({ code: "model_request_failed", retryable: true });
      await expectFullRefund(faulty, task);
      expect((await faulty.request("GET", `/v1/voices/${voiceId}`)).status).toBe(404);
    }));

  it("stays deleted when its owner deletes it before the clone succeeds", () =>
    onModel(CLONE, async () => {
      await queueFault(faulty, { family: "vendorA", model: CLONE, kind: "http_500", times: 3 });
      const created = await createTask(faulty, "/v1/voices", { sample: await upload(faulty, await voiceLike(120, 11), "s.mp3"), display_name: "Gone", consent_attested: true });
      const voiceId = voiceIdOf(created.task_id);
      expect((await faulty.request("DELETE", `/v1/voices/${voiceId}`)).body).toMatchObject({ voice_id: voiceId, deleted: true });
      const { task } = await followTask(faulty, created.task_id);
      expect(task.status).toBe("succeeded");
      expect(task.output.voice_id).toBe(voiceId);
      expect((await faulty.request("GET", `/v1/voices/${voiceId}`)).status).toBe(404);
      const refused = await faulty.request("POST", "/v1/audio/speech", { body: { voice: voiceId, input: "Hello?" }, idempotencyKey: randomUUID() });
      expect(refused.body.error.code).toBe("voice_not_found");
    }));
});

// The vendorA protocol's faults, as they answer a clone (music covers every kind on the same protocol).
const FAULTS = [
  { kind: "http_429", code: "model_rate_limited", retryable: true, submits: 6 },
  { kind: "safety", code: "safety_rejected", retryable: false, submits: 1, wording: "voice sample flagged" },
  { kind: "content_filtered", code: "content_filtered", retryable: false, submits: 1, wording: "activation audio blocked" },
  { kind: "unknown_status", code: "model_request_failed", retryable: true, submits: 1, wording: "without activating it" },
  { kind: "bad_download", code: "model_output_invalid", retryable: true, submits: 1, wording: "after 3 attempts" },
];

describe.concurrent("vendor faults end clones with the right code, a full refund and no voice", () => {
  for (const fault of FAULTS) {
    it(`${fault.kind} → ${fault.code}`, () =>
      onModel(CLONE, async () => {
        const before = await vendorSubmits(faulty, "vendorA", CLONE);
        await queueFault(faulty, {
          family: "vendorA",
          model: CLONE,
          kind: fault.kind,
          times: fault.submits,
          ...(fault.kind === "http_429" ? { retry_after_seconds: 0 } : {}),
        });
        const { task } = await clone(await upload(faulty, await voiceLike(120, 11), "s.mp3"), {}, faulty);
        expect(task.error).toMatchObject({ code: fault.code, retryable: fault.retryable });
        if (fault.wording) expect(task.error.message).toContain(fault.wording);
        expect((await vendorSubmits(faulty, "vendorA", CLONE)) - before).toBe(fault.submits);
        await expectFullRefund(faulty, task);
        expect((await faulty.request("GET", `/v1/voices/${voiceIdOf(task.task_id)}`)).status).toBe(404);
      }),
    );
  }
});
