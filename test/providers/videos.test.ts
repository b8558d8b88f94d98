import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sweepOverdueTasks } from "../../core/index.js";
import { probeMedia } from "../../core/media/probe.js";
import { startHarness, type Harness } from "../support/harness.js";
import { eventually } from "../support/wait.js";
import { COLOURS, dataUri, halvesPng, toneWav } from "./video-media.js";
import {
  createTask,
  download,
  expectFullRefund,
  followTask,
  modelLanes,
  moveDeadlineToOneSecondFromNow,
  queueFault,
  vendorJobOf,
  vendorSubmits,
} from "./video-support.js";

// Text to video on every model and prompt enhancement, through the real worker and the vendor emulator over
// HTTP: vendorA (Video Generation V2 tasks, no cancel), vendorB (tasks, cancellable), vendorC (PENDING/RUNNING
// tasks, no cancel) and vendorD (long-running operations, no cancel). The emulator renders real clips, so
// what is checked is what a caller downloads. Faults per protocol are in video-faults.test.ts.

vi.setConfig({ maxConcurrency: 20, testTimeout: 60_000 });
const onModel = modelLanes();

let h: Harness;
beforeAll(async () => {
  // Polls are jobs scheduled for later; a short worker poll interval keeps the waits for them short.
  h = await startHarness({ worker: true, credits: "1000", env: { WORKER_POLL_INTERVAL_MS: "100" } });
});
afterAll(async () => h?.close());

interface VideoCase {
  model: string;
  body: Record<string, unknown>;
  // Written out rather than computed, so that a wrong dimension mapping fails here.
  width: number;
  height: number;
  seconds: number;
  format: "mp4" | "mov";
  audio: boolean;
  lastFrame: boolean;
}

const CASES: VideoCase[] = [
  // vendorA-h3 always renders with sound.
  { model: "vendorA-h3", body: { resolution: "768p", aspect_ratio: "9:16", duration: 4 }, width: 768, height: 1366, seconds: 4, format: "mp4", audio: true, lastFrame: false },
  { model: "vendorC3.0-video", body: { resolution: "480p", aspect_ratio: "1:1", generate_audio: true, negative_prompt: "blur", seed: 7 }, width: 480, height: 480, seconds: 5, format: "mp4", audio: true, lastFrame: false },
  { model: "vendorC3.0-video-prime", body: { resolution: "720p", aspect_ratio: "21:9", output_format: "mov", return_last_frame: true, generate_audio: false }, width: 1680, height: 720, seconds: 5, format: "mov", audio: false, lastFrame: true },
  // vendorD always produces audio; the request does not have to ask.
  { model: "vendorD-1.1-t2v", body: { resolution: "720p", aspect_ratio: "9:16" }, width: 720, height: 1280, seconds: 8, format: "mp4", audio: true, lastFrame: false },
  { model: "vendorC2.7-t2v", body: { resolution: "720p", aspect_ratio: "4:3", enhance_prompt: true, watermark: false }, width: 960, height: 720, seconds: 5, format: "mp4", audio: false, lastFrame: false },
  { model: "vendorB-2", body: { resolution: "480p", aspect_ratio: "21:9", duration: 4, generate_audio: true, return_last_frame: true, web_search: true }, width: 1120, height: 480, seconds: 4, format: "mp4", audio: true, lastFrame: true },
  { model: "vendorB-2-fast", body: { resolution: "480p", aspect_ratio: "3:4", duration: 4, generate_audio: false, watermark: true }, width: 480, height: 640, seconds: 4, format: "mp4", audio: false, lastFrame: false },
  // Every control omitted: the model's defaults (480p, 16:9, 5 s, silent).
  { model: "vendorB-2-mini", body: {}, width: 854, height: 480, seconds: 5, format: "mp4", audio: false, lastFrame: false },
  { model: "vendorB-2.5", body: { resolution: "480p", aspect_ratio: "9:16", duration: 4, generate_audio: true, return_last_frame: true, enhance_prompt: false, negative_prompt: "text" }, width: 480, height: 854, seconds: 4, format: "mp4", audio: true, lastFrame: true },
];

describe.concurrent("text_to_video on every model", () => {
  for (const c of CASES) {
    it(`${c.model} renders ${c.width}×${c.height}, ${c.seconds} s, ${c.format}${c.audio ? " with audio" : ""}${c.lastFrame ? " and its last frame" : ""}`, () =>
      onModel(c.model, async () => {
        const created = await createTask(h, "/v1/videos/text-to-video", { prompt: `A lighthouse at dusk for ${c.model}`, model: c.model, ...c.body });
        const { task } = await followTask(h, created.task_id);
        expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
        expect(task.resolved_model).toBe(c.model);

        const [video, ...rest] = task.output.artifacts;
        expect(video).toMatchObject({ kind: "video", format: c.format, content_type: c.format === "mov" ? "video/quicktime" : "video/mp4" });
        const bytes = await download(video.url);
        expect(bytes.length).toBe(video.byte_size);
        expect(bytes.subarray(4, 12).toString("latin1")).toBe(c.format === "mov" ? "ftypqt  " : "ftypisom");
        const probe = await probeMedia(bytes);
        expect(probe).toMatchObject({ codec: "h264", width: c.width, height: c.height, hasAudio: c.audio });
        expect(Math.abs(probe.durationSeconds - c.seconds)).toBeLessThanOrEqual(0.1);

        const lastFrames = rest.filter((a: { role?: string }) => a.role === "last_frame");
        expect(lastFrames).toHaveLength(c.lastFrame ? 1 : 0);
        if (c.lastFrame) {
          expect(lastFrames[0]).toMatchObject({ kind: "image", format: "png", content_type: "image/png", width: c.width, height: c.height });
          const frame = await probeMedia(await download(lastFrames[0].url));
          expect(frame).toMatchObject({ codec: "png", width: c.width, height: c.height });
        }

        expect(task.usage.output_video_seconds).toBe(c.seconds);
        expect(task.usage.image_count).toBe(0);
        expect(task.usage.credits).toBe(task.billing.charged_credits);
        expect(task.billing.refunded_credits).toBe("0.000000");
      }),
    );
  }

  it("keeps the service's own progress while vendorB's task runs (the vendor reports no percentage)", () =>
    onModel("vendorB-2", async () => {
      const created = await createTask(h, "/v1/videos/text-to-video", { prompt: "A kite over dunes", model: "vendorB-2", resolution: "480p", duration: 4 });
      const { task, percents } = await followTask(h, created.task_id);
      expect(task.status).toBe("succeeded");
      expect(task.progress.percent).toBe(100);
      expect(percents.filter((p) => p !== 100).every((p) => p <= 20)).toBe(true);
      expect([...percents].sort((a, b) => a - b)).toEqual(percents);
    }),
  );

  it("enhances a prompt for a duration and ratio, measuring the tokens", async () => {
    const idea = "A fox trots through fresh snow";
    const created = await createTask(h, "/v1/videos/prompts/enhance", { prompt: idea, duration: 12, aspect_ratio: "9:16", model: 42 });
    const { task } = await followTask(h, created.task_id);
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    expect(task).toMatchObject({ model: "auto", resolved_model: "vendorB-2-prompt-enhancer" });
    const text: string = task.output.text;
    expect(text.startsWith(idea)).toBe(true);
    expect(text).toContain("9:16");
    expect(text).toContain("12 seconds");
    // Four shots for twelve seconds, the last ending at 12 s.
    expect(text.match(/\d+-\d+s:/g)).toHaveLength(4);
    expect(text).toContain("9-12s:");
    // The vendor counts a token per four characters, and its input includes our instructions besides the idea.
    expect(task.usage.output_tokens).toBe(Math.ceil([...text].length / 4));
    expect(task.usage.input_tokens).toBeGreaterThan(Math.ceil(idea.length / 4));
    expect(task.output.artifacts).toEqual([]);
    // Postpaid: billed the measured tokens (0.001 per 1k input, 0.004 per 1k output, each rounded up), not the hold.
    const inputMicro = Math.ceil((task.usage.input_tokens * 1000) / 1000);
    const outputMicro = Math.ceil((task.usage.output_tokens * 4000) / 1000);
    expect(task.usage.lines.map((l: { meter: string; quantity: string }) => [l.meter, l.quantity])).toEqual([
      ["input_tokens", String(task.usage.input_tokens)],
      ["output_tokens", String(task.usage.output_tokens)],
    ]);
    const charged = (inputMicro + outputMicro) / 1e6;
    expect(task.billing.charged_credits).toBe(charged.toFixed(6));
    expect(task.billing.refunded_credits).toBe("0.000000");
    expect(task.usage.credits).toBe(charged.toFixed(6));
  });
});

async function readJson<T>(url: string, headers: Record<string, string>): Promise<T> {
  return (await fetch(url, { headers })).json() as Promise<T>;
}
// What each emulated vendor says about one of its jobs, read the way a client of that vendor would.
const BEARER = { authorization: "Bearer test" };
const vendorB = (ref: string) => readJson<{ status: string }>(`${h.emulatorUrl}/vendorB/api/v3/contents/generations/tasks/${ref}`, BEARER);
const vendorC = (ref: string) => readJson<{ output: { task_status: string } }>(`${h.emulatorUrl}/vendorC/api/v1/tasks/${ref}`, BEARER);
const vendorD = (ref: string) => readJson<{ done: boolean }>(`${h.emulatorUrl}/vendorD/v1beta/${ref}`, { "x-goog-api-key": "test" });
// vendorA's job reference is the vendor's task id and the submission time, joined by "@".
const vendorA = (ref: string) =>
  readJson<{ task: { status: string } }>(`${h.emulatorUrl}/vendorA/v2/query/video_generation/${ref.split("@")[0]}`, BEARER);

// A job the vendor never finishes (the hang fault): it stays running until canceled or past its deadline.
async function startNeverEndingJob(family: string, model: string) {
  await queueFault(h, { family, model, kind: "hang" });
  const created = await createTask(h, "/v1/videos/text-to-video", { prompt: "An endless corridor", model, resolution: model.startsWith("vendorB") ? "480p" : model === "vendorA-h3" ? "768p" : "720p" });
  const ref = await vendorJobOf(h, created.task_id);
  expect(await vendorSubmits(h, family, model)).toBeGreaterThanOrEqual(1);
  return { taskId: created.task_id, ref };
}

describe.concurrent("cancel and deadlines of running video tasks", () => {
  it("cancels a running vendorB task: 202, then canceled with a full refund and the vendor's job cancelled", () =>
    onModel("vendorB-2", async () => {
      const { taskId, ref } = await startNeverEndingJob("vendorB", "vendorB-2");
      const cancel = await h.request("POST", `/v1/tasks/${taskId}/cancel`, { body: { reason: "changed my mind" } });
      expect(cancel.status).toBe(202);
      expect(cancel.body.status).toBe("running");
      expect(cancel.body.cancel_requested_at).not.toBeNull();
      const { task } = await followTask(h, taskId);
      expect(task.status).toBe("canceled");
      expect(task.error).toBeNull();
      await expectFullRefund(h, task);
      // The vendor's job is stopped just after the task's end.
      await eventually("the vendor's job cancelled", 10_000, async () => ((await vendorB(ref)).status === "cancelled" ? true : undefined));
    }),
  );

  it("ends a vendorB task the vendor never finishes with model_timeout once past its deadline, and stops the job", () =>
    onModel("vendorB-2-fast", async () => {
      const { taskId, ref } = await startNeverEndingJob("vendorB", "vendorB-2-fast");
      await moveDeadlineToOneSecondFromNow(h, taskId);
      const { task } = await followTask(h, taskId);
      expect(task.status).toBe("failed");
      expect(task.error).toMatchObject({ code: "model_timeout", retryable: true });
      await expectFullRefund(h, task);
      // The vendor's job is stopped just after the task's end.
      await eventually("the vendor's job cancelled", 10_000, async () => ((await vendorB(ref)).status === "cancelled" ? true : undefined));
    }),
  );

  for (const [family, model, vendorStatus, running] of [
    ["vendorC", "vendorC3.0-video", async (ref: string) => (await vendorC(ref)).output.task_status, "RUNNING"],
    ["vendorA", "vendorA-h3", async (ref: string) => (await vendorA(ref)).task.status, "running"],
    ["vendorD", "vendorD-1.1-t2v", async (ref: string) => (await vendorD(ref)).done, false],
  ] as const) {
    it(`refuses to cancel a running ${family} task (409, keep polling); past its deadline it fails with model_timeout`, () =>
      onModel(model, async () => {
        const { taskId, ref } = await startNeverEndingJob(family, model);
        const cancel = await h.request("POST", `/v1/tasks/${taskId}/cancel`);
        expect(cancel.status).toBe(409);
        expect(cancel.body.error).toMatchObject({ code: "conflict", details: { action: "keep_polling" } });
        expect((await h.request("GET", `/v1/tasks/${taskId}`)).body.status).toBe("running");

        await moveDeadlineToOneSecondFromNow(h, taskId);
        const { task } = await followTask(h, taskId);
        expect(task.status).toBe("failed");
        expect(task.error).toMatchObject({ code: "model_timeout", retryable: true });
        await expectFullRefund(h, task);
        // This vendor has no cancel: its job is simply abandoned.
        expect(await vendorStatus(ref)).toBe(running);
      }),
    );
  }
});

describe("prompt enhancement with visual context", () => {
  it("reads its strict frames and references: pictures by their colours, audio and video by their length", async () => {
    const red = await halvesPng(64, 48, COLOURS.red!, COLOURS.red!);
    const framed = await createTask(h, "/v1/videos/prompts/enhance", {
      prompt: "A kite over the sea",
      duration: 6,
      aspect_ratio: "adaptive",
      first_frame: dataUri(red, "image/png"),
    });
    const task = (await followTask(h, framed.task_id)).task;
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    expect(task.output.text).toMatch(/Opening frame: a 64×48 picture, mostly red \(100%\)/);

    const referenced = await createTask(h, "/v1/videos/prompts/enhance", {
      prompt: "A kite over the sea",
      duration: 6,
      aspect_ratio: "16:9",
      references: [{ kind: "audio", media: dataUri(await toneWav(440, 2), "audio/wav") }],
    });
    const withAudio = (await followTask(h, referenced.task_id)).task;
    expect(withAudio.status, JSON.stringify(withAudio.error)).toBe("succeeded");
    expect(withAudio.output.text).toContain("Reference 1 (audio): audio, 2.0 s long.");
  });
});

// Last, and alone: it stops the worker, so that the deadline sweep, not a poll, is what finds the task overdue.
describe("the deadline sweep", () => {
  it("ends an overdue vendorB task with model_timeout and stops its job at the vendor", async () => {
    const { taskId, ref } = await startNeverEndingJob("vendorB", "vendorB-2-fast");
    await h.stopWorker();
    try {
      await h.core.db.execute(sql`update tasks set deadline_at = now() - interval '1 second' where id = ${taskId}`);
      expect(await sweepOverdueTasks(h.core)).toBe(1);
      const task = (await h.request("GET", `/v1/tasks/${taskId}`)).body;
      expect(task.status).toBe("failed");
      expect(task.error).toMatchObject({ code: "model_timeout", retryable: true });
      await expectFullRefund(h, task);
      expect((await vendorB(ref)).status).toBe("cancelled");
    } finally {
      await h.startWorker();
    }
  });
});
