import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeMedia } from "../../core/media/probe.js";
import { startHarness, waitForTask, type Harness } from "../support/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: true });
});
afterAll(async () => h?.close());

describe("speech task lifecycle through the real worker", () => {
  it("runs queued → succeeded and serves decodable audio", async () => {
    const created = await h.request("POST", "/v1/audio/speech", {
      idempotencyKey: "life-1",
      body: { voice: "en_female_aria", input: "Hello there, this is a test.", format: "wav", sample_rate: 16000 },
    });
    expect(created.status).toBe(202);
    expect(created.body.status).toBe("queued");
    const done = await waitForTask(h, created.body.task_id, ["succeeded", "failed"]);
    expect(done.status).toBe("succeeded");
    const artifact = done.output.artifacts[0];
    const download = await fetch(artifact.url);
    expect(download.status).toBe(200);
    const bytes = Buffer.from(await download.arrayBuffer());
    const probe = await probeMedia(bytes);
    expect(probe.codec).toBe("pcm_s16le");
    expect(probe.sampleRate).toBe(16000);
    expect(done.usage.audio_seconds).toBe(Math.ceil(probe.durationSeconds));
  });
});

describe("the task envelope", () => {
  it("has every field of SPEC.md, with nulls where not yet known", async () => {
    await h.stopWorker();
    const created = await h.request("POST", "/v1/audio/speech", {
      idempotencyKey: "envelope-1",
      body: { voice: "en_male_atlas", input: "Fields.", metadata: { order: "42" } },
    });
    expect(created.status).toBe(202);
    const task = created.body;
    expect(Object.keys(task).sort()).toEqual(
      [
        "object", "task_id", "status", "capability", "workload_type", "model", "resolved_model",
        "model_selection_reason", "social", "metadata", "input", "progress", "output", "warnings", "error", "usage",
        "billing", "callback", "created_at", "started_at", "deadline_at", "completed_at", "cancel_requested_at", "links",
      ].sort(),
    );
    expect(task).toMatchObject({
      object: "task",
      status: "queued",
      capability: "text_to_speech",
      workload_type: "model",
      model: "auto",
      resolved_model: "vendorA-speech-2.8-hd",
      metadata: { order: "42" },
      output: null,
      error: null,
      usage: null,
      callback: null,
      started_at: null,
      completed_at: null,
      cancel_requested_at: null,
      warnings: [],
      billing: { charged_credits: "0.000700", refunded_credits: "0.000000", net_charged_credits: "0.000700" },
    });
    expect(Object.keys(task.social).sort()).toEqual(["operation_key", "operation_name", "platform", "schema_hash"]);
    expect(task.input).toMatchObject({ voice: "en_male_atlas", input: "Fields.", format: "mp3", speed: 1 });
    expect(task.input.metadata).toBeUndefined();
    expect(new Date(task.deadline_at).getTime()).toBeGreaterThan(new Date(task.created_at).getTime());
    expect(task.links.self).toBe(`${h.baseUrl}/v1/tasks/${task.task_id}`);
    const fetched = await h.request("GET", `/v1/tasks/${task.task_id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(task);

    await h.startWorker();
    const done = await waitForTask(h, task.task_id, ["succeeded", "failed"]);
    expect(done.status).toBe("succeeded");
    expect(done.started_at).not.toBeNull();
    expect(done.completed_at).not.toBeNull();
    expect(done.progress).toMatchObject({ percent: 100, stage: "succeeded" });
    expect(done.usage.lines).toEqual([
      { meter: "speech_weighted_characters", quantity: "7", unit: "character", billed_amount_credits: "0.000700" },
    ]);
    expect(done.usage.characters).toBe(7);
  });

  it.each(["mp3", "wav", "flac", "opus", "pcm"])("delivers %s audio in the requested format", async (format) => {
    const created = await h.request("POST", "/v1/audio/speech", {
      idempotencyKey: `format-${format}`,
      body: { voice: "en_female_aria", input: "One two three.", format, sample_rate: format === "opus" ? 48000 : 22050 },
    });
    expect(created.status).toBe(202);
    const done = await waitForTask(h, created.body.task_id, ["succeeded", "failed"]);
    expect(done.status).toBe("succeeded");
    const artifact = done.output.artifacts[0];
    const bytes = Buffer.from(await (await fetch(artifact.url)).arrayBuffer());
    expect(bytes.length).toBe(artifact.byte_size);
    const probe = await probeMedia(bytes, format === "pcm" ? { format: "pcm", sampleRate: 22050 } : undefined);
    const codec = { mp3: "mp3", wav: "pcm_s16le", flac: "flac", opus: "opus", pcm: "pcm_s16le" }[format];
    expect(probe.codec).toBe(codec);
    expect(probe.sampleRate).toBe(format === "opus" ? 48000 : 22050);
    expect(probe.durationSeconds).toBeGreaterThan(0.3);
  });
});
