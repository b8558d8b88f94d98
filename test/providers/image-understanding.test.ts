import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { ledgerEntries, startHarness, waitForTask, type Harness } from "../support/harness.js";

// image_to_text on vendorA-M3 (a synchronous chat completion) and vendorF-vision-2.0 (a polled vision task),
// through the real worker and the vendor emulator over HTTP. The emulator downloads and decodes the images, so
// its answer names their real sizes, formats and colours; the task is billed per image read, after success.

type Rgb = readonly [number, number, number];

let h: Harness;
// 80 × 40 PNG: the left three quarters red, the rest blue.
let redAndBlue: string;
// 30 × 30 JPEG, all green, given inline as a data URI.
let greenDataUri: string;

async function encode(width: number, height: number, codec: "png" | "mjpeg", paint: (x: number) => Rgb): Promise<Buffer> {
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgb.set(paint(x), (y * width + x) * 3);
  return runFfmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${width}x${height}`, "-i", "pipe:0", "-c:v", codec, "-f", "image2pipe", "pipe:1"], rgb);
}

beforeAll(async () => {
  h = await startHarness({ worker: true, credits: "100", env: { WORKER_POLL_INTERVAL_MS: "100", PROVIDER_RETRY_BASE_MS: "10" } });
  const [png, jpeg] = await Promise.all([encode(80, 40, "png", (x) => (x < 60 ? [255, 0, 0] : [0, 0, 255])), encode(30, 30, "mjpeg", () => [0, 200, 0])]);
  const upload = await h.request("POST", "/v1/assets", { body: { content_base64: png.toString("base64"), filename: "red-blue.png" } });
  expect(upload.status).toBe(201);
  redAndBlue = upload.body.artifact_id;
  greenDataUri = `data:image/jpeg;base64,${jpeg.toString("base64")}`;
});
afterAll(async () => h?.close());

const RED_AND_BLUE = () => ({ type: "artifact", artifact_id: redAndBlue });

async function ask(body: Record<string, unknown>): Promise<string> {
  const created = await h.request("POST", "/v1/images/responses", { body, idempotencyKey: randomUUID() });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  return created.body.task_id as string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const finished = (taskId: string): Promise<any> => waitForTask(h, taskId, ["succeeded", "failed", "canceled"], { timeoutMs: 20_000 });

async function ledgerKinds(taskId: string) {
  return (await ledgerEntries(h)).filter((e) => e.task_id === taskId);
}

describe("answers computed from the decoded images", () => {
  it.concurrent("vendorA-M3 describes each image's size, format and colours, echoes the prompt, and bills per image", async () => {
    const prompt = "Which colours dominate these pictures?";
    const task = await finished(await ask({ model: "vendorA-M3", prompt, images: [RED_AND_BLUE(), greenDataUri], detail: "high" }));
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    expect(task.resolved_model).toBe("vendorA-M3");
    const text: string = task.output.text;
    expect(text).toContain(prompt);
    expect(text).toContain("2 images");
    expect(text).toMatch(/Image 1: 80×40 PNG, mostly red \(75%, #FF0000\), blue \(25%, #0000FF\)\./);
    expect(text).toMatch(/Image 2: 30×30 JPEG, mostly green \(100%/);
    expect(task.output.artifacts).toEqual([]);
    expect(task.usage).toMatchObject({ image_count: 2, credits: "0.004000" });
    expect(task.usage.input_tokens).toBeGreaterThan(Math.ceil(prompt.length / 4));
    expect(task.usage.output_tokens).toBe(Math.ceil([...text].length / 4));
    expect(task.billing).toMatchObject({ charged_credits: "0.004000", refunded_credits: "0.000000" });
    expect((await ledgerKinds(task.task_id)).map((e) => e.kind)).toEqual(["hold", "capture"]);
  });

  it.concurrent("vendorA-M3 answers in JSON when asked, and counts fewer input tokens at low detail", async () => {
    const [json, low] = await Promise.all([
      finished(await ask({ model: "vendorA-M3", prompt: "List the colours.", images: [RED_AND_BLUE()], response_format: "json", detail: "high" })),
      finished(await ask({ model: "vendorA-M3", prompt: "List the colours.", images: [RED_AND_BLUE()], detail: "low" })),
    ]);
    for (const task of [json, low]) expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    const answer = JSON.parse(json.output.text);
    expect(answer).toMatchObject({ prompt: "List the colours.", image_count: 1, images: [{ index: 1, width: 80, height: 40, format: "PNG" }] });
    expect(answer.images[0].dominant_colors).toEqual([
      { name: "red", hex: "#FF0000", share: 0.75 },
      { name: "blue", hex: "#0000FF", share: 0.25 },
    ]);
    expect(low.usage.input_tokens).toBeLessThan(json.usage.input_tokens);
    expect(low.usage.credits).toBe("0.002000");
  });

  it.concurrent("vendorF-vision-2.0 reads the images in a polled task and bills its own per-image price", async () => {
    const task = await finished(
      await ask({ model: "vendorF-vision-2.0", prompt: "Describe the picture.", images: [greenDataUri, RED_AND_BLUE()], detail: "low", temperature: 0.3 }),
    );
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    expect(task.output.text).toContain('"Describe the picture."');
    expect(task.output.text).toMatch(/Image 1: 30×30 JPEG, mostly green/);
    expect(task.output.text).toMatch(/Image 2: 80×40 PNG, mostly red \(75%/);
    expect(task.usage).toMatchObject({ image_count: 2, credits: "0.001600" });
    expect(task.usage.output_tokens).toBeGreaterThan(0);
    expect(task.billing.charged_credits).toBe("0.001600");
  });
});

describe("vendor failures end the task with the protocol's code, and nothing is charged", () => {
  async function scriptFault(family: string, model: string, kind: string, times = 1) {
    const response = await fetch(`${h.emulatorUrl}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ family, model, kind, times, retry_after_seconds: 0 }),
    });
    expect(response.status).toBe(201);
  }

  it.concurrent.each([
    { family: "vendorA", model: "vendorA-M3", kind: "http_500", times: 6, code: "model_request_failed", retryable: true },
    { family: "vendorA", model: "vendorA-M3", kind: "safety", code: "safety_rejected", retryable: false },
    { family: "vendorA", model: "vendorA-M3", kind: "content_filtered", code: "content_filtered", retryable: false },
    { family: "vendorA", model: "vendorA-M3", kind: "unknown_status", code: "model_request_failed", retryable: true },
    { family: "vendorF", model: "vendorF-vision-2.0", kind: "http_429", times: 6, code: "model_rate_limited", retryable: true },
    { family: "vendorF", model: "vendorF-vision-2.0", kind: "content_filtered", code: "content_filtered", retryable: false },
    { family: "vendorF", model: "vendorF-vision-2.0", kind: "safety", code: "safety_rejected", retryable: false },
  ])("$model $kind → $code", async (c) => {
    const task = await finishedAlone(c.model, async () => {
      await scriptFault(c.family, c.model, c.kind, c.times);
      return ask({ model: c.model, prompt: "What is this?", images: [RED_AND_BLUE()] });
    });
    expect(task.status).toBe("failed");
    expect(task.error).toMatchObject({ code: c.code, retryable: c.retryable });
    expect(task.billing).toMatchObject({ charged_credits: "0.000000", net_charged_credits: "0.000000" });
    const entries = await ledgerKinds(task.task_id);
    expect(entries.map((e) => e.kind)).toEqual(["hold", "release"]);
    expect(entries[1]!.amount).toBe(entries[0]!.amount);
  });
});

// Faults are scripted per model and taken by its next call: the cases of one model run one after another, each
// scripting its fault and running its task, so that every fault reaches the task it was scripted for.
const queues = new Map<string, Promise<unknown>>();
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function finishedAlone(model: string, start: () => Promise<string>): Promise<any> {
  const run = (queues.get(model) ?? Promise.resolve()).then(async () => finished(await start()));
  queues.set(model, run.catch(() => undefined));
  return run;
}
