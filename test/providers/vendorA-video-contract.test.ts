import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_VENDOR_IDS, mergeVendorIds, vendorIdProblems } from "../../core/catalog/vendor-ids.js";
import type { ProviderRequestOf } from "../../core/providers/served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../../core/providers/types.js";
import type { ResolvedMediaInput } from "../../core/providers/vendor-input.js";
import { pollVendorAVideo, submitVendorAVideo, type VendorAVideoCapability } from "../../core/providers/vendorA/video.js";
import { answerByMethod, emulatorBehindRecorder, emulatorCall, expectExamplesToParse, loadReference, schemaOf, serveMedia, startRecorder, vendorAEndpoint as endpointAt } from "./contract-support.js";
import { COLOURS, halvesPng } from "./video-media.js";
import { videoRequest } from "./video-requests.js";

// vendorA-h3 through the vendor's Video Generation V2, against the copy of its reference kept in the repo
// (docs/providers/reference/vendorA-video-generation-v2.json): the adapter's requests and the emulator's answers
// must fit its schemas, and its examples must go through both. A disagreement between the emulator and the
// reference fails here.

type Json = Record<string, unknown>;

interface Reference {
  createRequest: object;
  createResponse: object;
  taskResponse: object;
  errorResponse: object;
  examples: { createRequest: Json; framesRequest: Json; createResponse: Json; task: Json & { task: Json }; failedTask: Json & { task: Json } };
}

const reference = loadReference<Reference>("vendorA-video-generation-v2.json");
const createRequestSchema = schemaOf(reference.createRequest);
const createResponseSchema = schemaOf(reference.createResponse);
const taskSchema = schemaOf(reference.taskResponse);
const errorSchema = schemaOf(reference.errorResponse);

const { emulator, proxy } = emulatorBehindRecorder(["authorization"]);
let picture: { url: string; close(): Promise<void> };

beforeAll(async () => {
  picture = await serveMedia(await halvesPng(512, 288, COLOURS.red!, COLOURS.blue!), "image/png");
}, 120_000);

afterAll(async () => picture.close());

function image(url: string): ResolvedMediaInput {
  return { url, kind: "image", format: "png", width: 512, height: 288, duration_seconds: 0, has_audio: false };
}

const MODEL = "vendorA-h3";

// The controls a request may ask for beside its media.
interface AskedControls {
  aspect_ratio?: string;
  resolution?: string;
  duration?: number;
}

async function emulatorVideo(method: string, pathname: string, body?: unknown): Promise<{ status: number; json: Json }> {
  return emulatorCall<Json>(emulator.url, method, `/vendorA${pathname}`, body, { authorization: "Bearer contract-key" });
}

// The body the adapter sends for `request`, answered with the reference's created example.
async function sentBy(request: ProviderRequestOf<VendorAVideoCapability>): Promise<Json & { content: Json[] }> {
  const vendor = await startRecorder(answerByMethod({ POST: reference.examples.createResponse }));
  try {
    await submitVendorAVideo(endpointAt(vendor.url), request, AbortSignal.timeout(60_000));
    expect(vendor.requests[0]).toMatchObject({ method: "POST", path: "/v2/video_generation" });
    expect(vendor.requests[0]?.headers.authorization).toBe("Bearer contract-key");
    return vendor.requests[0]?.body as Json & { content: Json[] };
  } finally {
    await vendor.close();
  }
}

describe("the reference copy", () => {
  it("accepts its own examples", () => {
    expectExamplesToParse([
      [createRequestSchema, reference.examples.createRequest],
      [createRequestSchema, reference.examples.framesRequest],
      [createResponseSchema, reference.examples.createResponse],
      [taskSchema, reference.examples.task],
      [taskSchema, reference.examples.failedTask],
    ]);
  });

  it.each([
    ["our own model id", { model: "vendorA-h3" }],
    ["a top-level prompt", { prompt: "A lighthouse" }],
    ["an aspect_ratio", { aspect_ratio: "16:9" }],
    ["a seed", { seed: 3 }],
    ["a 720P tier", { resolution: "720P" }],
    ["a 20 s duration", { duration: 20 }],
  ])("refuses what the old adapter sent: %s", (_case, change) => {
    expect(createRequestSchema.safeParse({ ...reference.examples.createRequest, ...change }).success).toBe(false);
  });
});

describe("the emulator answers as the reference does", () => {
  it("creates the reference's example task (at 768P) and reads it as the reference's task until it succeeds", async () => {
    const created = await emulatorVideo("POST", "/v2/video_generation", { ...reference.examples.createRequest, resolution: "768P", duration: 4 });
    expect(created.status).toBe(200);
    expect(createResponseSchema.safeParse(created.json).success, JSON.stringify(created.json)).toBe(true);
    let answer: Json & { task?: Json } = {};
    for (let read = 0; read < 600 && answer.task?.status !== "succeeded"; read++) {
      if (read > 0) await delay(200);
      answer = (await emulatorVideo("GET", `/v2/query/video_generation/${String(created.json.task_id)}`)).json;
      expect(taskSchema.safeParse(answer).success, JSON.stringify(answer)).toBe(true);
      expect(["queued", "running", "succeeded"]).toContain(answer.task?.status);
    }
    expect(answer.task).toMatchObject({ status: "succeeded", model: "MiniMax-H3", resolution: "768P", duration: 4, ratio: "16:9", usage: { output_seconds: 4 } });
    expect((await fetch(String((answer.task?.content as Json).url))).status).toBe(200);
  });

  it.each([
    ["our own model id", { model: "vendorA-h3" }],
    ["the first API's prompt field", { prompt: "x" }],
    ["an adaptive ratio for text alone", { ratio: "adaptive" }],
    ["a missing ratio for text alone", { ratio: undefined }],
    ["a 1080P tier", { resolution: "1080P" }],
    ["no text", { content: [{ type: "image_url", image_url: { url: "https://x/a.png" }, role: "first_frame" }] }],
    [
      "frames and references together",
      {
        content: [
          { type: "text", text: "x" },
          { type: "image_url", image_url: { url: "https://x/a.png" }, role: "first_frame" },
          { type: "image_url", image_url: { url: "https://x/b.png" }, role: "reference_image" },
        ],
        ratio: "adaptive",
      },
    ],
  ])("refuses %s with 2013 in the reference's error body", async (_case, change) => {
    const answer = await emulatorVideo("POST", "/v2/video_generation", { ...reference.examples.createRequest, ...change });
    expect(errorSchema.safeParse(answer.json).success, JSON.stringify(answer.json)).toBe(true);
    expect(answer.json.base_resp).toMatchObject({ status_code: 2013 });
  });

  it("refuses a reference image smaller than the vendor's 256 px sides", async () => {
    const small = await serveMedia(await halvesPng(160, 90, COLOURS.red!, COLOURS.blue!), "image/png");
    try {
      const content = [{ type: "text", text: "x" }, { type: "image_url", image_url: { url: small.url }, role: "reference_image" }];
      const answer = await emulatorVideo("POST", "/v2/video_generation", { ...reference.examples.createRequest, content, ratio: "adaptive" });
      expect(answer.json.base_resp).toMatchObject({ status_code: 2013, status_msg: expect.stringContaining("256") });
    } finally {
      await small.close();
    }
  });
});

describe("the adapter's requests fit the reference", () => {
  it("creates a text-to-video task by the vendor's model id, and follows the emulator's task to its video", async () => {
    const request = videoRequest("text_to_video", MODEL, { prompt: "A lighthouse at dusk", resolution: "768p", duration: 4 });
    const endpoint = endpointAt(`${proxy.url}/vendorA`);
    let outcome: ProviderOutcome = await submitVendorAVideo(endpoint, request, AbortSignal.timeout(60_000));
    const sent = proxy.requests[0]?.body as Json;
    expect(createRequestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
    expect(sent).toEqual({ model: "MiniMax-H3", content: [{ type: "text", text: "A lighthouse at dusk" }], resolution: "768P", duration: 4, ratio: "16:9" });
    for (let read = 0; read < 600 && outcome.status === "pending"; read++) {
      await delay(200);
      outcome = await pollVendorAVideo(endpoint, outcome.ref, request, AbortSignal.timeout(60_000));
    }
    expect(outcome).toMatchObject({ status: "done", outputs: [{ kind: "video", format: "mp4" }] });
    for (const call of proxy.requests.slice(1)) expect(taskSchema.safeParse(call.answer).success, JSON.stringify(call.answer)).toBe(true);
  });

  it.each([
    [
      "image_to_video",
      (asked: AskedControls) => videoRequest("image_to_video", MODEL, { prompt: "Push in", image: image("https://files.example/a.png"), ...asked }),
      [{ type: "text", text: "Push in" }, { type: "image_url", image_url: { url: "https://files.example/a.png" }, role: "first_frame" }],
    ],
    [
      "frames_to_video",
      (asked: AskedControls) => videoRequest("frames_to_video", MODEL, { first_frame: image("https://files.example/a.png"), last_frame: image("https://files.example/b.png"), ...asked }),
      [
        { type: "text", text: "A video from the first frame to the last frame." },
        { type: "image_url", image_url: { url: "https://files.example/a.png" }, role: "first_frame" },
        { type: "image_url", image_url: { url: "https://files.example/b.png" }, role: "last_frame" },
      ],
    ],
    [
      "reference_to_video",
      (asked: AskedControls) =>
        videoRequest("reference_to_video", MODEL, {
          prompt: "They meet",
          references: [
            { kind: "image", media: image("https://files.example/hero.png"), role: "subject" },
            { kind: "video", media: { ...image("https://files.example/m.mp4"), kind: "video", format: "mp4", duration_seconds: 3 } },
            { kind: "audio", media: { ...image("https://files.example/s.mp3"), kind: "audio", format: "mp3", width: null, height: null, duration_seconds: 3 } },
          ],
          ...asked,
        }),
      [
        { type: "text", text: "They meet" },
        { type: "image_url", image_url: { url: "https://files.example/hero.png" }, role: "reference_image" },
        { type: "video_url", video_url: { url: "https://files.example/m.mp4" }, role: "reference_video" },
        { type: "audio_url", audio_url: { url: "https://files.example/s.mp3" }, role: "reference_audio" },
      ],
    ],
  ])("sends %s as content items with their roles, following the media (adaptive) unless a ratio is asked", async (_capability, request, content) => {
    const sent = await sentBy(request({}));
    expect(createRequestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
    expect(sent).toMatchObject({ model: "MiniMax-H3", resolution: "768P", duration: 5, ratio: "adaptive" });
    expect(sent.content).toEqual(content);
    const asked = await sentBy(request({ aspect_ratio: "9:16", resolution: "2k", duration: 15 }));
    expect(asked).toMatchObject({ resolution: "2K", duration: 15, ratio: "9:16" });
  });
});

describe("the reference's answers replayed through the adapter", () => {
  it("takes the created example's task id and reads the succeeded example's video", async () => {
    const vendor = await startRecorder(answerByMethod({ POST: reference.examples.createResponse, GET: reference.examples.task }));
    try {
      const endpoint = endpointAt(vendor.url);
      const request = videoRequest("text_to_video", MODEL, { prompt: "x" });
      const created = await submitVendorAVideo(endpoint, request, AbortSignal.timeout(60_000));
      expect(created).toMatchObject({ status: "pending", ref: expect.stringMatching(new RegExp(`^${String(reference.examples.createResponse.task_id)}@`)) });
      if (created.status !== "pending") return;
      const outcome = await pollVendorAVideo(endpoint, created.ref, request, AbortSignal.timeout(60_000));
      expect(outcome).toEqual({ status: "done", outputs: [{ url: (reference.examples.task.task.content as Json).url, kind: "video", format: "mp4" }] });
      expect(vendor.requests[1]).toMatchObject({ method: "GET", path: `/v2/query/video_generation/${String(reference.examples.createResponse.task_id)}` });
    } finally {
      await vendor.close();
    }
  });

  it.each([
    ["the failed example (output blocked, 1027)", reference.examples.failedTask, "content_filtered"],
    ["an expired task", { task: { ...reference.examples.failedTask.task, status: "expired", error: undefined } }, "model_request_failed"],
    ["a running task", { task: { ...reference.examples.failedTask.task, status: "running", error: undefined } }, null],
  ])("maps %s", async (_case, task, code) => {
    expect(taskSchema.safeParse(task).success).toBe(true);
    const vendor = await startRecorder(answerByMethod({ GET: task }));
    try {
      const outcome = await pollVendorAVideo(endpointAt(vendor.url), "t@0", videoRequest("text_to_video", MODEL, { prompt: "x" }), AbortSignal.timeout(60_000)).catch((error: unknown) => error);
      if (code === null) expect(outcome).toMatchObject({ status: "pending", progress: { percent: 50 } });
      else expect(outcome).toBeInstanceOf(ProviderFailure);
      if (code !== null) expect(outcome).toMatchObject({ code });
    } finally {
      await vendor.close();
    }
  });
});

describe("the id map", () => {
  it("maps vendorA-h3 to the reference's model id", () => {
    expect(vendorIdProblems(mergeVendorIds({}), ["vendorA"])).toEqual([]);
    expect(DEFAULT_VENDOR_IDS.vendorA?.models["vendorA-h3"]).toBe("MiniMax-H3");
  });
});
