import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_VENDOR_IDS, mergeVendorIds, vendorIdProblems } from "../../core/catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../core/config.js";
import type { ImageCapability } from "../../core/providers/image-inputs.js";
import type { ProviderRequestOf } from "../../core/providers/served-capabilities.js";
import { ProviderFailure, type ProviderOutcome } from "../../core/providers/types.js";
import type { VendorInputOf } from "../../core/providers/vendor-input.js";
import { pollImageSynthesis, submitImageSynthesis } from "../../core/providers/vendorC/image.js";
import { answerByMethod, emulatorBehindRecorder, emulatorCall, expectExamplesToParse, loadReference, schemaOf, serveMedia, startRecorder } from "./contract-support.js";
import { COLOURS, halvesPng } from "./video-media.js";

// vendorC's Wan 2.7 image generation and editing against the copy of Model Studio's reference kept in the repo
// (docs/providers/reference/vendorC-image-generation.json): the adapter's requests and the emulator's answers must
// fit its schemas, and its examples must go through both. A disagreement between the emulator and the reference
// fails here.

type Json = Record<string, unknown>;

interface Reference {
  createRequest: object;
  createResponse: object;
  task: object;
  errorResponse: object;
  examples: { createRequest: Json; textRequest: Json & { parameters: Json }; createResponse: Json & { output: Json }; task: Json & { output: Json }; failedTask: Json & { output: Json } };
}

const reference = loadReference<Reference>("vendorC-image-generation.json");
const createRequestSchema = schemaOf(reference.createRequest);
const createResponseSchema = schemaOf(reference.createResponse);
const taskSchema = schemaOf(reference.task);
const errorSchema = schemaOf(reference.errorResponse);

const GENERATION = "/vendorC/api/v1/services/aigc/image-generation/generation";
const HEADERS = { authorization: "Bearer contract-key", "x-dashscope-async": "enable" };

const { emulator, proxy } = emulatorBehindRecorder(["authorization", "x-dashscope-async"]);
let picture: { url: string; close(): Promise<void> };

beforeAll(async () => {
  picture = await serveMedia(await halvesPng(320, 240, COLOURS.red!, COLOURS.blue!), "image/png");
}, 120_000);

afterAll(async () => picture.close());

function endpointAt(baseUrl: string): ProviderEndpoint {
  return { baseUrl, apiKey: "contract-key", ids: DEFAULT_VENDOR_IDS.vendorC };
}

function artifact(url: string) {
  return { type: "artifact", url, kind: "image" as const, width: 320, height: 240, format: "png", duration_seconds: 0, has_audio: false };
}

const CANVAS = { type: "preset", tier: "2K", aspect: "16:9" } as const;

function textRequest(model: string, input: Partial<VendorInputOf<"text_to_image">>): ProviderRequestOf<"text_to_image"> {
  return { taskId: "task_contract", capability: "text_to_image", model, input: { prompt: "x", model, count: 1, canvas: CANVAS, output_relationship: "independent", ...input } };
}

// An input-images request's fields beyond the defaults: its prompt and images at least.
type AskedWithImages<Input extends { prompt: string; images: unknown }> = Pick<Input, "prompt" | "images"> & Partial<Input>;

function imageToImageRequest(model: string, input: AskedWithImages<VendorInputOf<"image_to_image">>): ProviderRequestOf<"image_to_image"> {
  return { taskId: "task_contract", capability: "image_to_image", model, input: { model, count: 1, canvas: CANVAS, output_relationship: "independent", ...input } };
}

function editRequest(model: string, input: AskedWithImages<VendorInputOf<"image_edit">>): ProviderRequestOf<"image_edit"> {
  return { taskId: "task_contract", capability: "image_edit", model, input: { model, count: 1, canvas: CANVAS, ...input } };
}

async function emulatorImages(method: string, pathname: string, body?: unknown): Promise<{ status: number; json: Json }> {
  return emulatorCall<Json>(emulator.url, method, pathname, body, HEADERS);
}

async function sentBy(request: ProviderRequestOf<ImageCapability>): Promise<Json & { input: { messages: { content: Json[] }[] }; parameters: Json }> {
  const vendor = await startRecorder(answerByMethod({ POST: reference.examples.createResponse }));
  try {
    await submitImageSynthesis(endpointAt(vendor.url), request, AbortSignal.timeout(60_000));
    expect(vendor.requests[0]).toMatchObject({ method: "POST", path: "/api/v1/services/aigc/image-generation/generation" });
    expect(vendor.requests[0]?.headers["x-dashscope-async"]).toBe("enable");
    return vendor.requests[0]?.body as Json & { input: { messages: { content: Json[] }[] }; parameters: Json };
  } finally {
    await vendor.close();
  }
}

describe("the reference copy", () => {
  it("accepts its own examples", () => {
    expectExamplesToParse([
      [createRequestSchema, reference.examples.createRequest],
      [createRequestSchema, reference.examples.textRequest],
      [createResponseSchema, reference.examples.createResponse],
      [taskSchema, reference.examples.task],
      [taskSchema, reference.examples.failedTask],
    ]);
  });

  it.each([
    ["our own model id", { model: "vendorC2.7-image-pro" }],
    ["an input.prompt", { input: { prompt: "x" } }],
    ["an image2image function", { input: { function: "remix", prompt: "x", images: ["https://x/a.png"] } }],
    ["prompt_extend", { parameters: { size: "2K", prompt_extend: false } }],
    ["sequential", { parameters: { size: "2K", sequential: true } }],
  ])("refuses what the old adapter sent: %s", (_case, change) => {
    expect(createRequestSchema.safeParse({ ...reference.examples.textRequest, ...change }).success).toBe(false);
  });
});

describe("the emulator answers as the reference does", () => {
  it("creates the reference's text example task and reads it as the reference's task until it succeeds", async () => {
    const created = await emulatorImages("POST", GENERATION, reference.examples.textRequest);
    expect(created.status).toBe(200);
    expect(createResponseSchema.safeParse(created.json).success, JSON.stringify(created.json)).toBe(true);
    const taskId = String((created.json.output as Json).task_id);
    let task: Json & { output?: Json } = {};
    for (let read = 0; read < 600 && task.output?.task_status !== "SUCCEEDED"; read++) {
      if (read > 0) await delay(100);
      task = (await emulatorImages("GET", `/vendorC/api/v1/tasks/${taskId}`)).json;
      expect(taskSchema.safeParse(task).success, JSON.stringify(task)).toBe(true);
      expect(["PENDING", "RUNNING", "SUCCEEDED"]).toContain(task.output?.task_status);
    }
    expect(task).toMatchObject({ output: { task_status: "SUCCEEDED" }, usage: { image_count: 2, size: "2048*1152" } });
    const images = (task.output?.choices as { message: { content: { type: string; image: string }[] } }[])[0]!.message.content;
    expect(images).toHaveLength(2);
    for (const image of images) expect((await fetch(image.image)).status).toBe(200);
  });

  it.each([
    ["our own model id", { model: "vendorC2.7-image" }, 404, "ModelNotFound"],
    ["the old input.prompt", { input: { prompt: "x" } }, 400, "InvalidParameter"],
    ["4K on the standard model", { parameters: { size: "4096*4096" } }, 400, "InvalidParameter"],
    ["5 images without a sequence", { parameters: { size: "2K", n: 5 } }, 400, "InvalidParameter"],
  ])("refuses %s with the reference's error body", async (_case, change, status, code) => {
    const answer = await emulatorImages("POST", GENERATION, { ...reference.examples.textRequest, ...change });
    expect(answer.status).toBe(status);
    expect(errorSchema.safeParse(answer.json).success).toBe(true);
    expect(answer.json.code).toBe(code);
  });

  it("refuses 4K with input images on the pro model, which renders 4K from text alone", async () => {
    const content = [{ text: "in blue" }, { image: picture.url }];
    const answer = await emulatorImages("POST", GENERATION, { model: "wan2.7-image-pro", input: { messages: [{ role: "user", content }] }, parameters: { size: "4K" } });
    expect(answer).toMatchObject({ status: 400, json: { code: "InvalidParameter" } });
  });

  it("answers UNKNOWN for a task id it does not know, as the reference does", async () => {
    const task = (await emulatorImages("GET", "/vendorC/api/v1/tasks/no-such-task")).json;
    expect(taskSchema.safeParse(task).success).toBe(true);
    expect(task.output).toMatchObject({ task_status: "UNKNOWN" });
  });
});

describe("the adapter's requests fit the reference", () => {
  it("creates a text-to-image task by the vendor's model id, and follows the emulator's task to its images", async () => {
    const request = textRequest("vendorC2.7-image-pro", { prompt: "A lighthouse", negative_prompt: "fog", seed: 7, reasoning: true, count: 2 });
    const endpoint = endpointAt(`${proxy.url}/vendorC`);
    let outcome: ProviderOutcome = await submitImageSynthesis(endpoint, request, AbortSignal.timeout(60_000));
    const sent = proxy.requests[0]?.body as Json;
    expect(createRequestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
    expect(sent).toEqual({
      model: "wan2.7-image-pro",
      input: { messages: [{ role: "user", content: [{ text: "A lighthouse" }] }] },
      parameters: { size: "2048*1152", n: 2, negative_prompt: "fog", seed: 7, thinking_mode: true },
    });
    for (let read = 0; read < 600 && outcome.status === "pending"; read++) {
      await delay(100);
      outcome = await pollImageSynthesis(endpoint, outcome.ref, request, AbortSignal.timeout(60_000));
    }
    expect(outcome).toMatchObject({ status: "done", outputs: [{ kind: "image", format: "png" }, { kind: "image", format: "png" }] });
    for (const call of proxy.requests.slice(1)) expect(taskSchema.safeParse(call.answer).success, JSON.stringify(call.answer)).toBe(true);
  });

  it("sends image-to-image as the text and the images in request order, and a sequence as enable_sequential", async () => {
    const request = imageToImageRequest("vendorC2.7-image-pro", {
      prompt: "in blue",
      images: [artifact("https://files.example/a.png"), artifact("https://files.example/b.png")],
      output_relationship: "sequence",
      count: 2,
      canvas: { type: "preset", tier: "2K", aspect: "source" },
    });
    const sent = await sentBy(request);
    expect(createRequestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
    expect(sent.input.messages[0]?.content).toEqual([{ text: "in blue" }, { image: "https://files.example/a.png" }, { image: "https://files.example/b.png" }]);
    expect(sent.parameters).toEqual({ size: "2048*1536", n: 2, enable_sequential: true });
  });

  it("sends an edit's regions as bbox_list, one list of pixel boxes per input image, and the emulator edits them", async () => {
    const request = editRequest("vendorC2.7-image", {
      prompt: "paint it green",
      images: [artifact(picture.url), artifact(picture.url)],
      edit_regions: [
        { image_index: 0, x: 0.5, y: 0, width: 0.5, height: 0.5 },
        { image_index: 1, x: 0, y: 0.5, width: 0.25, height: 0.5 },
      ],
      canvas: { type: "preset", tier: "1K", aspect: "source" },
    });
    const sent = await sentBy(request);
    expect(createRequestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
    expect(sent.model).toBe("wan2.7-image");
    expect(sent.parameters).toEqual({ size: "1024*768", n: 1, bbox_list: [[[160, 0, 320, 120]], [[0, 120, 80, 240]]] });
    const created = await emulatorImages("POST", GENERATION, sent);
    expect(created.status, JSON.stringify(created.json)).toBe(200);
  });
});

describe("the reference's answers replayed through the adapter", () => {
  it("takes the created example's task id and reads the succeeded example's image at the family's task route", async () => {
    const vendor = await startRecorder(answerByMethod({ POST: reference.examples.createResponse, GET: reference.examples.task }));
    try {
      const endpoint = endpointAt(vendor.url);
      const request = textRequest("vendorC2.7-image", { prompt: "x" });
      const taskId = String(reference.examples.createResponse.output.task_id);
      expect(await submitImageSynthesis(endpoint, request, AbortSignal.timeout(60_000))).toMatchObject({ status: "pending", ref: taskId });
      const outcome = await pollImageSynthesis(endpoint, taskId, request, AbortSignal.timeout(60_000));
      expect(outcome).toEqual({ status: "done", outputs: [{ url: "https://dashscope-result.oss.example/1.png", kind: "image", format: "png" }] });
      expect(vendor.requests[1]).toMatchObject({ method: "GET", path: `/api/v1/tasks/${taskId}` });
    } finally {
      await vendor.close();
    }
  });

  it.each([
    ["the failed example (output flagged)", reference.examples.failedTask, "content_filtered"],
    ["an UNKNOWN task", { ...reference.examples.failedTask, output: { task_id: "t", task_status: "UNKNOWN" } }, "model_request_failed"],
  ])("maps %s", async (_case, task, code) => {
    expect(taskSchema.safeParse(task).success).toBe(true);
    const vendor = await startRecorder(answerByMethod({ GET: task }));
    try {
      const failure = await pollImageSynthesis(endpointAt(vendor.url), "t", textRequest("vendorC2.7-image", { prompt: "x" }), AbortSignal.timeout(60_000)).catch(
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(ProviderFailure);
      expect(failure).toMatchObject({ code });
    } finally {
      await vendor.close();
    }
  });
});

describe("the id map", () => {
  it("maps the Wan 2.7 image models to the reference's model ids", () => {
    expect(vendorIdProblems(mergeVendorIds({}), ["vendorC"])).toEqual([]);
    expect(DEFAULT_VENDOR_IDS.vendorC?.models["vendorC2.7-image-pro"]).toBe("wan2.7-image-pro");
    expect(DEFAULT_VENDOR_IDS.vendorC?.models["vendorC2.7-image"]).toBe("wan2.7-image");
  });
});
