import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { DEFAULT_VENDOR_IDS, mergeVendorIds, vendorIdProblems } from "../../core/catalog/vendor-ids.js";
import { VIDEO_MODELS } from "../../core/catalog/video-models.js";
import type { ProviderEndpoint } from "../../core/config.js";
import type { ProviderRequestOf } from "../../core/providers/served-capabilities.js";
import { ProviderFailure } from "../../core/providers/types.js";
import type { ResolvedMediaInput } from "../../core/providers/vendor-input.js";
import type { VideoJobCapability } from "../../core/providers/video-job.js";
import { pollVendorCVideo, submitVendorCVideo } from "../../core/providers/vendorC/video.js";
import { answerByMethod, emulatorBehindRecorder, emulatorCall as callEmulator, expectExamplesToParse, loadReference, schemaOf as schema, startRecorder } from "./contract-support.js";
import { videoRequest } from "./video-requests.js";

// vendorC's Wan 2.7 video synthesis against the copy of Model Studio's reference kept in the repo
// (docs/providers/reference/vendorC-video-synthesis.json): the adapter's requests and the emulator's answers must
// fit its schemas, and its own examples must go through both. A disagreement between the emulator and the
// reference fails here.

type Json = Record<string, unknown>;

interface Reference {
  createRequest: object;
  createResponse: object;
  task: object;
  errorResponse: object;
  examples: { createRequest: Json & { input: Json; parameters: Json }; createResponse: Json & { output: Json }; task: Json & { output: Json }; failedTask: Json & { output: Json } };
}

const reference = loadReference<Reference>("vendorC-video-synthesis.json");
const createRequestSchema = schema(reference.createRequest);
const createResponseSchema = schema(reference.createResponse);
const taskSchema = schema(reference.task);
const errorSchema = schema(reference.errorResponse);

function fixedAnswers(answers: Record<string, Json>) {
  return startRecorder(answerByMethod(answers));
}

const { emulator, proxy } = emulatorBehindRecorder(["authorization", "x-dashscope-async"]);

function endpointAt(baseUrl: string): ProviderEndpoint {
  return { baseUrl, apiKey: "contract-key", ids: DEFAULT_VENDOR_IDS.vendorC };
}

const SYNTHESIS = "/vendorC/api/v1/services/aigc/video-generation/video-synthesis";

async function emulatorCall(method: string, pathname: string, body?: unknown): Promise<{ status: number; json: Json }> {
  return callEmulator<Json>(emulator.url, method, pathname, body, { authorization: "Bearer contract-key", "x-dashscope-async": "enable" });
}

// The reference's request example as text to video (the emulator cannot reach the vendor's sample files), at a
// duration the text model takes.
function exampleTextRequest(): Json {
  const example = reference.examples.createRequest;
  return { ...example, model: "wan2.7-t2v", input: { prompt: example.input.prompt }, parameters: { ...example.parameters, duration: 5 } };
}

function media(kind: "image" | "video" | "audio", name: string): ResolvedMediaInput {
  const picture = kind === "audio" ? { width: null, height: null } : { width: 1280, height: 720 };
  return { url: `https://files.example/${name}`, kind, format: kind === "image" ? "png" : kind === "video" ? "mp4" : "mp3", ...picture, duration_seconds: kind === "image" ? 0 : 3, has_audio: kind !== "image" };
}

async function sentBy(request: ProviderRequestOf<VideoJobCapability>): Promise<Json & { input: Json; parameters: Json }> {
  const vendor = await fixedAnswers({ POST: reference.examples.createResponse });
  try {
    await submitVendorCVideo(endpointAt(vendor.url), request, AbortSignal.timeout(60_000));
    expect(vendor.requests[0]?.headers["x-dashscope-async"]).toBe("enable");
    return vendor.requests[0]?.body as Json & { input: Json; parameters: Json };
  } finally {
    await vendor.close();
  }
}

describe("the reference copy", () => {
  it("accepts its own examples", () => {
    expectExamplesToParse([
      [createRequestSchema, reference.examples.createRequest],
      [createResponseSchema, reference.examples.createResponse],
      [taskSchema, reference.examples.task],
      [taskSchema, reference.examples.failedTask],
    ]);
  });

  it.each([
    ["our own model id", { model: "vendorC2.7-i2v" }],
    ["a size in pixels", { parameters: { size: "1280*720" } }],
    ["an img_url", { input: { img_url: "https://x/a.png" } }],
    ["a function", { input: { function: "video_edit" } }],
    ["a 480P tier", { parameters: { resolution: "480P" } }],
  ])("refuses what the old adapter sent: %s", (_case, change) => {
    expect(createRequestSchema.safeParse({ ...reference.examples.createRequest, ...change }).success).toBe(false);
  });
});

describe("the emulator answers as the reference does", () => {
  it("creates the reference's example task and reads it as the reference's task until it succeeds", async () => {
    const created = await emulatorCall("POST", SYNTHESIS, exampleTextRequest());
    expect(created.status).toBe(200);
    expect(createResponseSchema.safeParse(created.json).success, JSON.stringify(created.json)).toBe(true);
    const taskId = String((created.json.output as Json).task_id);
    let task: Json & { output?: Json } = {};
    for (let read = 0; read < 600 && task.output?.task_status !== "SUCCEEDED"; read++) {
      if (read > 0) await delay(200);
      task = (await emulatorCall("GET", `/vendorC/api/v1/tasks/${taskId}`)).json;
      expect(taskSchema.safeParse(task).success, JSON.stringify(task)).toBe(true);
      expect(["PENDING", "RUNNING", "SUCCEEDED"]).toContain(task.output?.task_status);
    }
    expect(task.output?.task_status).toBe("SUCCEEDED");
    expect((await fetch(String(task.output?.video_url))).status).toBe(200);
  });

  it("answers UNKNOWN for a task id it does not know, as the reference does", async () => {
    const task = (await emulatorCall("GET", "/vendorC/api/v1/tasks/no-such-task")).json;
    expect(taskSchema.safeParse(task).success).toBe(true);
    expect(task.output).toMatchObject({ task_status: "UNKNOWN" });
  });

  it.each([
    ["our own model id", { model: "vendorC2.7-t2v" }, 404, "ModelNotFound"],
    ["a size in pixels", { parameters: { size: "1280*720" } }, 400, "InvalidParameter"],
    ["an img_url", { input: { prompt: "x", img_url: "https://x/a.png" } }, 400, "InvalidParameter"],
    ["a 480P resolution, which Wan 2.7 does not render", { parameters: { resolution: "480P" } }, 400, "InvalidParameter"],
    ["a 21:9 ratio", { parameters: { resolution: "720P", ratio: "21:9" } }, 400, "InvalidParameter"],
  ])("refuses %s with the reference's error body", async (_case, change, status, code) => {
    const answer = await emulatorCall("POST", SYNTHESIS, { ...exampleTextRequest(), ...change });
    expect(answer.status).toBe(status);
    expect(errorSchema.safeParse(answer.json).success).toBe(true);
    expect(answer.json.code).toBe(code);
  });

  it("refuses a synchronous call (no X-DashScope-Async) with the reference's error body", async () => {
    const response = await fetch(`${emulator.url}${SYNTHESIS}`, {
      method: "POST",
      headers: { authorization: "Bearer contract-key", "content-type": "application/json" },
      body: JSON.stringify(exampleTextRequest()),
    });
    expect(response.status).toBe(403);
    expect(errorSchema.safeParse(await response.json()).success).toBe(true);
  });
});

describe("the adapter's requests fit the reference", () => {
  it("creates a text-to-video task by the vendor's model id, and the emulator runs it", async () => {
    const request = videoRequest("text_to_video", "vendorC2.7-t2v", { prompt: "A lighthouse at dusk", negative_prompt: "blur", resolution: "720p", seed: 7 });
    const outcome = await submitVendorCVideo(endpointAt(`${proxy.url}/vendorC`), request, AbortSignal.timeout(60_000));
    const sent = proxy.requests[0]?.body as Json;
    expect(createRequestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
    expect(sent).toMatchObject({
      model: "wan2.7-t2v",
      input: { prompt: "A lighthouse at dusk", negative_prompt: "blur" },
      parameters: { resolution: "720P", ratio: "16:9", duration: 5, prompt_extend: false, seed: 7, audio: false },
    });
    expect(outcome).toMatchObject({ status: "pending" });
  });

  it.each([
    ["image_to_video", "vendorC2.7-i2v", videoRequest("image_to_video", "vendorC2.7-i2v", { image: media("image", "a.png"), resolution: "720p" }), [{ type: "first_frame", url: "https://files.example/a.png" }]],
    [
      "frames_to_video",
      "vendorC2.7-i2v",
      videoRequest("frames_to_video", "vendorC2.7-i2v", { first_frame: media("image", "a.png"), last_frame: media("image", "b.png"), driving_audio: media("audio", "d.mp3"), resolution: "720p" }),
      [
        { type: "first_frame", url: "https://files.example/a.png" },
        { type: "last_frame", url: "https://files.example/b.png" },
        { type: "driving_audio", url: "https://files.example/d.mp3" },
      ],
    ],
    [
      "video_extend",
      "vendorC2.7-i2v",
      videoRequest("video_extend", "vendorC2.7-i2v", { instruction: "The boat sails on", video: media("video", "clip.mp4"), direction: "after", duration: 10, resolution: "720p" }),
      [{ type: "first_clip", url: "https://files.example/clip.mp4" }],
    ],
    [
      "reference_to_video",
      "vendorC2.7-r2v",
      videoRequest("reference_to_video", "vendorC2.7-r2v", {
        prompt: "They meet",
        references: [{ kind: "image", media: media("image", "hero.png"), role: "subject" }, { kind: "video", media: media("video", "motion.mp4") }],
        resolution: "720p",
      }),
      [
        { type: "reference_image", url: "https://files.example/hero.png", reference_description: "subject" },
        { type: "reference_video", url: "https://files.example/motion.mp4" },
      ],
    ],
    [
      "video_edit",
      "vendorC2.7-videoedit",
      videoRequest("video_edit", "vendorC2.7-videoedit", { instruction: "Make it night", source_video: media("video", "source.mp4"), audio_setting: "origin", resolution: "720p" }),
      [{ type: "video", url: "https://files.example/source.mp4" }],
    ],
  ])("sends %s on %s as input.media by the reference's types", async (capability, model, request, expected) => {
    const sent = await sentBy(request);
    expect(createRequestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
    expect(sent.model).toBe(DEFAULT_VENDOR_IDS.vendorC?.models[model]);
    expect(sent.input.media).toEqual(expected);
    if (capability !== "reference_to_video") expect(sent.parameters.ratio).toBeUndefined();
    if (capability === "video_edit") expect(sent.parameters.audio_setting).toBe("origin");
  });

  it("asks for an extension before the clip with the one field of ours the reference has not", async () => {
    const sent = await sentBy(videoRequest("video_extend", "vendorC2.7-i2v", { instruction: "The boat sails on", video: media("video", "clip.mp4"), direction: "before", duration: 10, resolution: "720p" }));
    expect(sent.parameters.extend_direction).toBe("before");
    const { extend_direction: _ours, ...parameters } = sent.parameters;
    expect(createRequestSchema.safeParse({ ...sent, parameters }).success).toBe(true);
  });
});

describe("the reference's answers replayed through the adapter", () => {
  it("takes the created example's task id and reads the succeeded example's video", async () => {
    const vendor = await fixedAnswers({ POST: reference.examples.createResponse, GET: reference.examples.task });
    try {
      const endpoint = endpointAt(vendor.url);
      const request = videoRequest("text_to_video", "vendorC2.7-t2v", { prompt: "x", resolution: "720p" });
      const taskId = String(reference.examples.createResponse.output.task_id);
      expect(await submitVendorCVideo(endpoint, request, AbortSignal.timeout(60_000))).toMatchObject({ status: "pending", ref: taskId });
      const outcome = await pollVendorCVideo(endpoint, taskId, request, AbortSignal.timeout(60_000));
      expect(outcome).toEqual({ status: "done", outputs: [{ url: reference.examples.task.output.video_url, kind: "video", format: "mp4" }] });
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
    const vendor = await fixedAnswers({ GET: task });
    try {
      const request = videoRequest("text_to_video", "vendorC2.7-t2v", { prompt: "x" });
      const failure = await pollVendorCVideo(endpointAt(vendor.url), "t", request, AbortSignal.timeout(60_000)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProviderFailure);
      expect(failure).toMatchObject({ code });
    } finally {
      await vendor.close();
    }
  });
});

describe("the id map", () => {
  it("maps the Wan 2.7 video models to the reference's model ids", () => {
    expect(vendorIdProblems(mergeVendorIds({}), ["vendorC"])).toEqual([]);
    const videoIds = VIDEO_MODELS.filter((model) => model.family === "vendorC").flatMap((model) => DEFAULT_VENDOR_IDS.vendorC?.models[model.id] ?? []);
    expect(videoIds).toHaveLength(4);
    expect(videoIds.every((id) => createRequestSchema.safeParse({ model: id, input: {} }).success)).toBe(true);
  });
});
