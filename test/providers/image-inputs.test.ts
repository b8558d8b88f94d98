import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { probeMedia } from "../../core/media/probe.js";
import { ledgerEntries, startHarness, waitForTask, type Harness } from "../support/harness.js";

// image_to_image and image_edit on every image model, through the real worker and the vendor emulator over HTTP.
// The emulator downloads the input images from the service's signed URLs and derives its pictures from them, so
// the pixels tell whether the inputs were really used: a remix is the last input recoloured toward the prompt,
// an edit keeps the base image and changes only its regions.

type Rgb = readonly [number, number, number];

let h: Harness;
// 320 × 240 (4:3), four flat quadrants.
let quadrants: string;
const RED: Rgb = [200, 0, 0];
const GREEN: Rgb = [0, 160, 0];
const BLUE: Rgb = [0, 0, 200];
const LIGHT: Rgb = [230, 230, 230];
// 240 × 480 (1:2): light grey above, dark grey below.
let greys: string;
// 240 × 240, flat cyan: a reference whose pixels an edit region takes.
let cyanReference: string;
const CYAN: Rgb = [0, 200, 210];

async function encodePng(width: number, height: number, paint: (x: number, y: number) => Rgb): Promise<Buffer> {
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgb.set(paint(x, y), (y * width + x) * 3);
  return runFfmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${width}x${height}`, "-i", "pipe:0", "-c:v", "png", "-f", "image2pipe", "pipe:1"], rgb);
}

async function upload(bytes: Buffer, filename: string): Promise<string> {
  const response = await h.request("POST", "/v1/assets", { body: { content_base64: bytes.toString("base64"), filename } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.artifact_id as string;
}

beforeAll(async () => {
  h = await startHarness({ worker: true, credits: "1000", env: { WORKER_POLL_INTERVAL_MS: "100", PROVIDER_RETRY_BASE_MS: "10" } });
  const [quadrantPng, greyPng, cyanPng] = await Promise.all([
    // Sides of 240 px and more: the smallest any model takes (vendorC's published 240).
    encodePng(320, 240, (x, y) => (y < 120 ? (x < 160 ? RED : GREEN) : x < 160 ? BLUE : LIGHT)),
    encodePng(240, 480, (_x, y) => (y < 240 ? [200, 200, 200] : [60, 60, 60])),
    encodePng(240, 240, () => CYAN),
  ]);
  [quadrants, greys, cyanReference] = await Promise.all([upload(quadrantPng, "quadrants.png"), upload(greyPng, "greys.png"), upload(cyanPng, "cyan.png")]);
});
afterAll(async () => h?.close());

const artifact = (id: string) => ({ type: "artifact", artifact_id: id });

async function create(path: string, body: Record<string, unknown>): Promise<string> {
  const created = await h.request("POST", path, { body, idempotencyKey: randomUUID() });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  return created.body.task_id as string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const finished = (taskId: string): Promise<any> => waitForTask(h, taskId, ["succeeded", "failed", "canceled"], { timeoutMs: 30_000 });

interface Picture {
  bytes: Buffer;
  width: number;
  height: number;
  rgb: Buffer;
}

// Downloads every output image, checks it is the PNG of the size the task reports, and decodes its pixels.
async function pictures(task: { output: { artifacts: { url: string; width: number; height: number; byte_size: number }[] } }): Promise<Picture[]> {
  return Promise.all(
    task.output.artifacts.map(async (output) => {
      const response = await fetch(output.url);
      expect(response.status).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.length).toBe(output.byte_size);
      expect(await probeMedia(bytes)).toMatchObject({ codec: "png", width: output.width, height: output.height });
      const rgb = await runFfmpeg(["-i", "pipe:0", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"], bytes);
      return { bytes, width: output.width, height: output.height, rgb };
    }),
  );
}

// The pixel at a point given as fractions of the picture's width and height.
function pixelAt(picture: Picture, fx: number, fy: number): Rgb {
  const at = (Math.floor(fy * picture.height) * picture.width + Math.floor(fx * picture.width)) * 3;
  return [picture.rgb[at]!, picture.rgb[at + 1]!, picture.rgb[at + 2]!];
}

const luminance = ([r, g, b]: Rgb) => 0.299 * r + 0.587 * g + 0.114 * b;
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function expectClose(actual: Rgb, expected: Rgb, label: string) {
  for (let c = 0; c < 3; c++) expect(Math.abs(actual[c]! - expected[c]!), `${label}: ${actual.join(",")} vs ${expected.join(",")}`).toBeLessThanOrEqual(6);
}

interface ModelCase {
  model: string;
  // As many inputs as the model takes, up to two; the last one is always the grey picture.
  inputs: number;
  tier: string;
  count: number;
  // The canvas of a `source` ratio following the 1:2 grey picture: the tier's long edge by half of it, except on
  // Imagen (vendorE), which renders five ratios only and is sent the nearest of them, 9:16.
  width: number;
  height: number;
}

const MODELS: ModelCase[] = [
  { model: "vendorE-image-2.5-flare", inputs: 2, tier: "1K", count: 2, width: 576, height: 1024 },
  { model: "vendorE-image-2.5-sunburst", inputs: 2, tier: "1K", count: 1, width: 576, height: 1024 },
  { model: "vendorE-image-2", inputs: 2, tier: "1K", count: 2, width: 576, height: 1024 },
  { model: "image-01-live", inputs: 1, tier: "2K", count: 1, width: 1024, height: 2048 },
  { model: "vendorC2.7-image-pro", inputs: 2, tier: "2K", count: 2, width: 1024, height: 2048 },
  { model: "vendorC2.7-image", inputs: 2, tier: "1K", count: 1, width: 512, height: 1024 },
  { model: "vendorF-image-3.0-pro", inputs: 2, tier: "2K", count: 1, width: 1024, height: 2048 },
  { model: "vendorF-image-3.0", inputs: 2, tier: "1K", count: 2, width: 512, height: 1024 },
  { model: "vendorF-image-2.0-pro", inputs: 2, tier: "2K", count: 1, width: 1024, height: 2048 },
  { model: "vendorF-image-2.0", inputs: 1, tier: "1K", count: 1, width: 512, height: 1024 },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function expectFullRefund(task: any) {
  expect(task.billing.refunded_credits).toBe(task.billing.charged_credits);
  expect(task.billing.net_charged_credits).toBe("0.000000");
  const entries = (await ledgerEntries(h)).filter((e) => e.task_id === task.task_id);
  expect(entries.map((e) => e.kind)).toEqual(["hold", "release"]);
}

describe("image_to_image on every image model", () => {
  it.concurrent.each(MODELS)("$model restyles the last input toward the prompt at its ratio or the nearest it renders ($count at $tier, $width × $height)", async (m) => {
    const images = m.inputs === 2 ? [artifact(quadrants), artifact(greys)] : [artifact(greys)];
    const taskId = await create("/v1/images/image-to-image", {
      model: m.model,
      prompt: "the same scene in blue",
      images,
      count: m.count,
      canvas: { tier: m.tier, aspect: "source" },
    });
    const task = await finished(taskId);
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    expect(task.output.artifacts).toHaveLength(m.count);
    for (const output of task.output.artifacts) expect(output).toMatchObject({ kind: "image", format: "png", width: m.width, height: m.height });
    const outputs = await pictures(task);
    for (const picture of outputs) {
      const top = pixelAt(picture, 0.25, 0.25);
      const bottom = pixelAt(picture, 0.25, 0.75);
      // The grey picture's light half stays lighter than its dark half, and both turn blue; the red of the first
      // input (top left of the quadrants) is nowhere.
      expect(luminance(top) - luminance(bottom), `${top} over ${bottom}`).toBeGreaterThan(60);
      for (const pixel of [top, bottom]) expect(pixel[2] - pixel[0], `${pixel}`).toBeGreaterThan(30);
    }
    expect(new Set(outputs.map((p) => sha256(p.bytes))).size).toBe(m.count);
    expect(task.usage).toMatchObject({ image_count: m.count, image_pixels: m.count * m.width * m.height });
    expect(task.billing.refunded_credits).toBe("0.000000");
  });

  it("renders a preset ratio from the input's content when the aspect is not source", async () => {
    const task = await finished(
      await create("/v1/images/image-to-image", {
        model: "vendorE-image-2",
        prompt: "a red version",
        images: [artifact(greys)],
        canvas: { tier: "1K", aspect: "16:9" },
      }),
    );
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    const [picture] = await pictures(task);
    expect(picture).toMatchObject({ width: 1024, height: 576 });
    const top = pixelAt(picture!, 0.5, 0.25);
    expect(top[0] - top[2], `${top}`).toBeGreaterThan(30);
    expect(luminance(top) - luminance(pixelAt(picture!, 0.5, 0.75))).toBeGreaterThan(60);
  });
});

// The models that edit regions, and how many regions each takes.
const REGION_MODELS = ["vendorE-image-2.5-sunburst", "vendorC2.7-image-pro", "vendorC2.7-image", "vendorF-image-3.0-pro", "vendorF-image-2.0-pro"];
const WHOLE_IMAGE_MODELS = ["vendorE-image-2.5-flare", "vendorE-image-2", "image-01-live", "vendorF-image-3.0", "vendorF-image-2.0"];
const tierOf = (model: string) => MODELS.find((m) => m.model === model)!.tier;

describe("image_edit on every image model", () => {
  it.concurrent.each(REGION_MODELS)("%s fills the region of the base with the prompt's colour and keeps the rest", async (model) => {
    const task = await finished(
      await create("/v1/images/edits", {
        model,
        prompt: "paint the corner yellow",
        images: [artifact(quadrants)],
        edit_regions: [{ image_index: 0, x: 0, y: 0, width: 0.5, height: 0.5 }],
        canvas: { tier: tierOf(model), aspect: "source" },
      }),
    );
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    const [picture] = await pictures(task);
    // The base is 4:3.
    const long = tierOf(model) === "2K" ? 2048 : 1024;
    expect(picture).toMatchObject({ width: long, height: (long * 3) / 4 });
    const inside = pixelAt(picture!, 0.25, 0.25);
    expect(inside[0], `${inside}`).toBeGreaterThan(200);
    expect(inside[1], `${inside}`).toBeGreaterThan(180);
    expect(inside[2], `${inside}`).toBeLessThan(60);
    expectClose(pixelAt(picture!, 0.75, 0.25), GREEN, "top right");
    expectClose(pixelAt(picture!, 0.25, 0.75), BLUE, "bottom left");
    expectClose(pixelAt(picture!, 0.75, 0.75), LIGHT, "bottom right");
  });

  it.concurrent.each(WHOLE_IMAGE_MODELS)("%s edits the whole base image, keeping its layout", async (model) => {
    const task = await finished(
      await create("/v1/images/edits", { model, prompt: "make it yellow", images: [artifact(quadrants)], canvas: { tier: tierOf(model), aspect: "source" } }),
    );
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    const [picture] = await pictures(task);
    const long = tierOf(model) === "2K" ? 2048 : 1024;
    expect(picture).toMatchObject({ width: long, height: (long * 3) / 4 });
    const corners = [pixelAt(picture!, 0.25, 0.25), pixelAt(picture!, 0.75, 0.25), pixelAt(picture!, 0.25, 0.75), pixelAt(picture!, 0.75, 0.75)];
    // Every quadrant turns toward yellow: the coloured ones plainly, the near-white one a little (less blue).
    [RED, GREEN, BLUE].forEach((original, i) => {
      const change = Math.max(...corners[i]!.map((channel, c) => Math.abs(channel - original[c]!)));
      expect(change, `quadrant ${i}: ${corners[i]} from ${original}`).toBeGreaterThan(20);
    });
    expect(LIGHT[2] - corners[3]![2], `${corners[3]}`).toBeGreaterThan(8);
    // Light stays lightest and blue darkest: the picture is the base, recoloured.
    const light = corners.map(luminance);
    expect(Math.max(...light)).toBe(light[3]);
    expect(Math.min(...light)).toBe(light[2]);
  });

  it.concurrent("a region on a reference image takes that reference's pixels into the base", async () => {
    const task = await finished(
      await create("/v1/images/edits", {
        model: "vendorC2.7-image-pro",
        prompt: "put the swatch in the corner",
        images: [artifact(quadrants), artifact(cyanReference)],
        edit_regions: [{ image_index: 1, x: 0.5, y: 0.5, width: 0.5, height: 0.5 }],
        count: 2,
      }),
    );
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    // The default canvas is 2K at the base's ratio.
    for (const picture of await pictures(task)) {
      expect(picture).toMatchObject({ width: 2048, height: 1536 });
      expectClose(pixelAt(picture, 0.75, 0.75), CYAN, "bottom right");
      expectClose(pixelAt(picture, 0.25, 0.25), RED, "top left");
      expectClose(pixelAt(picture, 0.75, 0.25), GREEN, "top right");
    }
  });

  it.concurrent("each image of an edited set differs, the region changed in all of them", async () => {
    const task = await finished(
      await create("/v1/images/edits", {
        model: "vendorF-image-3.0-pro",
        prompt: "a purple patch",
        images: [artifact(quadrants)],
        edit_regions: [{ image_index: 0, x: 0.5, y: 0, width: 0.5, height: 0.5 }],
        count: 3,
      }),
    );
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    const outputs = await pictures(task);
    expect(outputs).toHaveLength(3);
    expect(new Set(outputs.map((p) => sha256(p.bytes))).size).toBe(3);
    for (const picture of outputs) {
      const patch = pixelAt(picture, 0.75, 0.25);
      expect(patch[2] - patch[1], `${patch}`).toBeGreaterThan(60);
      expectClose(pixelAt(picture, 0.25, 0.25), RED, "top left");
    }
  });
});

describe("vendor failures end the task with the protocol's code and a full refund", () => {
  async function scriptFault(family: string, model: string, kind: string, extra: Record<string, unknown> = {}) {
    const response = await fetch(`${h.emulatorUrl}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ family, model, kind, ...extra }),
    });
    expect(response.status).toBe(201);
  }

  it.concurrent.each([
    { family: "vendorE", model: "vendorE-image-2", path: "image-to-image", kind: "safety", code: "safety_rejected", retryable: false },
    { family: "vendorF", model: "vendorF-image-2.0", path: "edits", kind: "content_filtered", code: "content_filtered", retryable: false },
    { family: "vendorC", model: "vendorC2.7-image", path: "image-to-image", kind: "bad_download", code: "model_output_invalid", retryable: true },
    { family: "vendorA", model: "image-01-live", path: "edits", kind: "http_429", times: 6, code: "model_rate_limited", retryable: true },
  ])("$family $path: $kind → $code", async (c) => {
    await scriptFault(c.family, c.model, c.kind, { times: c.times ?? 1, retry_after_seconds: 0 });
    const task = await finished(
      await create(`/v1/images/${c.path}`, { model: c.model, prompt: "a quiet harbour", images: [artifact(greys)], canvas: { tier: tierOf(c.model), aspect: "source" } }),
    );
    expect(task.status).toBe("failed");
    expect(task.error).toMatchObject({ code: c.code, retryable: c.retryable });
    expect(task.output).toBeNull();
    await expectFullRefund(task);
  });
});
