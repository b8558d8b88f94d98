import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { balance, startHarness, type Harness } from "../support/harness.js";
import { createTask, expectHoldReleased, followTask, queueFault, vendorSubmits } from "./video-support.js";
import { COLOURS, colourSequenceMp4, longStillMp4, uploaded } from "./video-media.js";

// video_to_text on vendorA-M3 through the real worker and the vendor emulator over HTTP. The emulated model
// downloads the video, samples it (1 fps, 0.5 fps from 120 s, 0.2 fps from 240 s) and answers from the frames it
// decoded; the task is billed after success per rounded-up second of the video as the service decoded it.

vi.setConfig({ maxConcurrency: 10, testTimeout: 60_000 });

let h: Harness;
let clip: { type: string; artifact_id: string }; // 2.5 s, 320×180: red, blue, then half a second of green
let twoMinutes: { type: string; artifact_id: string };
let fourMinutes: { type: string; artifact_id: string };
let tooLong: { type: string; artifact_id: string };

beforeAll(async () => {
  // Retries are jobs scheduled for later: a short backoff and poll interval keep the retried faults quick.
  h = await startHarness({ worker: true, credits: "1000", env: { WORKER_POLL_INTERVAL_MS: "100", PROVIDER_RETRY_BASE_MS: "10" } });
  const [colours, long, longer, longest] = await Promise.all([
    colourSequenceMp4([COLOURS.red!, COLOURS.blue!, COLOURS.green!], { width: 320, height: 180 }, null, 2.5),
    longStillMp4(COLOURS.blue!, 125),
    longStillMp4(COLOURS.yellow!, 250),
    longStillMp4(COLOURS.red!, 601),
  ]);
  [clip, twoMinutes, fourMinutes, tooLong] = await Promise.all([
    uploaded(h, colours, "colours.mp4"),
    uploaded(h, long, "two-minutes.mp4"),
    uploaded(h, longer, "four-minutes.mp4"),
    uploaded(h, longest, "too-long.mp4"),
  ]);
});
afterAll(async () => h?.close());

const MODEL = "vendorA-M3";

async function answered(body: Record<string, unknown>) {
  const created = await createTask(h, "/v1/videos/responses", { model: MODEL, ...body });
  const { task } = await followTask(h, created.task_id);
  expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
  expect(task.output.artifacts).toEqual([]);
  return task;
}

// Postpaid: the rounded-up seconds at 0.001 credits each are charged, and the rest of the hold goes back.
function expectBilledSeconds(task: { usage: Record<string, unknown>; billing: Record<string, string> }, seconds: number) {
  expect(task.usage).toMatchObject({ input_video_seconds: seconds, video_seconds: seconds });
  expect(task.usage.lines).toEqual([expect.objectContaining({ meter: "video_input_seconds", quantity: String(seconds) })]);
  const credits = (seconds / 1000).toFixed(6);
  expect(task.usage.credits).toBe(credits);
  expect(task.billing).toMatchObject({ charged_credits: credits, refunded_credits: "0.000000", net_charged_credits: credits });
}

describe.concurrent("answers from the frames it decoded", () => {
  it("describes a short clip frame by frame, sampled at 1 fps, billed for 3 s", async () => {
    const task = await answered({ prompt: "What colours does this show?", video: clip });
    const text: string = task.output.text;
    expect(text).toContain('You asked: "What colours does this show?"');
    expect(text).toContain("The video lasts 2.5 s at 320×180");
    expect(text).toContain("Sampled at 1 fps: 3 frames");
    expect(text).toMatch(/Frame 1 at 0\.0 s: red 100%\./);
    expect(text).toMatch(/Frame 2 at 1\.0 s: blue 100%\./);
    expect(text).toMatch(/Frame 3 at 2\.0 s: green 100%\./);
    expect(task.usage.input_tokens).toBeGreaterThan(0);
    expect(task.usage.output_tokens).toBe(Math.ceil([...text].length / 4));
    expectBilledSeconds(task, 3);
  });

  it("samples at 0.5 fps from 120 s, answering JSON when asked", async () => {
    const task = await answered({ prompt: "Describe it", video: twoMinutes, response_format: "json", detail: "low" });
    const answer = JSON.parse(task.output.text);
    expect(answer).toMatchObject({ prompt: "Describe it", duration_seconds: 125, width: 64, height: 36, sampling_fps: 0.5, sampled_frames: 63 });
    expect(answer.frames).toHaveLength(63);
    expect(answer.frames[62]).toMatchObject({ time_seconds: 124, colors: [expect.objectContaining({ name: "blue", share: 1 })] });
    expectBilledSeconds(task, 125);
  });

  it("samples at 0.2 fps from 240 s", async () => {
    const task = await answered({ prompt: "Describe it", video: fourMinutes, response_format: "json", detail: "high" });
    const answer = JSON.parse(task.output.text);
    expect(answer).toMatchObject({ duration_seconds: 250, sampling_fps: 0.2, sampled_frames: 50 });
    expect(answer.frames[49]).toMatchObject({ time_seconds: 245, colors: [expect.objectContaining({ name: "yellow" })] });
    expectBilledSeconds(task, 250);
  });
});

// Scripted faults go to the next call for the model and the vendor's calls are counted, so these run one at a
// time, after the tests above.
describe("failures end with the right code, nothing charged and the hold released", () => {
  // The upload was decoded when it arrived, so admission knows its length: nothing is admitted or held.
  it("refuses at admission an uploaded video longer than the model reads (600 s), at /video, without calling the vendor", async () => {
    const before = await vendorSubmits(h, "vendorA", MODEL);
    const held = await balance(h);
    const refused = await h.request("POST", "/v1/videos/responses", { body: { model: MODEL, prompt: "Summarize", video: tooLong }, idempotencyKey: randomUUID() });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "unsupported_option", param: "/video", retryable: false });
    expect(refused.body.error.details.candidate_failures[0]).toMatchObject({ code: "unsupported_media_duration", supported: { max_seconds: 600 } });
    expect(await vendorSubmits(h, "vendorA", MODEL)).toBe(before);
    expect(await balance(h)).toEqual(held);
  });

  const ATTEMPTS = 6;
  const faults = [
    { kind: "http_500", code: "model_request_failed", retryable: true, calls: ATTEMPTS, wording: "video understanding engine unavailable" },
    { kind: "http_429", code: "model_rate_limited", retryable: true, calls: ATTEMPTS, wording: "rate limit" },
    { kind: "malformed", code: "model_request_failed", retryable: true, calls: ATTEMPTS, wording: "not JSON" },
    { kind: "safety", code: "safety_rejected", retryable: false, calls: 1, wording: "video flagged by safety review" },
    { kind: "content_filtered", code: "content_filtered", retryable: false, calls: 1, wording: "answer blocked" },
    { kind: "unknown_status", code: "model_request_failed", retryable: true, calls: 1, wording: '"suspended"' },
  ];
  for (const fault of faults) {
    it(`${fault.kind} → ${fault.code}`, async () => {
      const before = await vendorSubmits(h, "vendorA", MODEL);
      const retryAfter = fault.kind === "http_429" ? { retry_after_seconds: 0 } : {};
      await queueFault(h, { family: "vendorA", model: MODEL, kind: fault.kind, times: fault.calls, ...retryAfter });
      const created = await createTask(h, "/v1/videos/responses", { model: MODEL, prompt: "Summarize", video: clip });
      const { task } = await followTask(h, created.task_id);
      expect(task.status).toBe("failed");
      expect(task.error).toMatchObject({ code: fault.code, retryable: fault.retryable });
      expect(task.error.message).toContain(fault.wording);
      expect(task.output).toBeNull();
      expect((await vendorSubmits(h, "vendorA", MODEL)) - before).toBe(fault.calls);
      expect(task.billing).toMatchObject({ charged_credits: "0.000000", net_charged_credits: "0.000000" });
      await expectHoldReleased(h, task.task_id);
    });
  }
});
