import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { DEFAULT_VENDOR_IDS, vendorIdProblems, mergeVendorIds } from "../../core/catalog/vendor-ids.js";
import { VIDEO_MODELS } from "../../core/catalog/video-models.js";
import type { ProviderEndpoint } from "../../core/config.js";
import type { ProviderRequestOf } from "../../core/providers/served-capabilities.js";
import { ProviderFailure } from "../../core/providers/types.js";
import type { ResolvedMediaInput } from "../../core/providers/vendor-input.js";
import { enhanceVendorBPrompt } from "../../core/providers/vendorB/enhancer.js";
import { cancelVendorBVideo, pollVendorBVideo, submitVendorBVideo } from "../../core/providers/vendorB/video.js";
import { answerByMethod, emulatorBehindRecorder, emulatorCall as callEmulator, loadReference, schemaOf as schema, startRecorder } from "./contract-support.js";
import { videoRequest } from "./video-requests.js";

// vendorB's content generation tasks and its enhancer's chat completion against the copy of BytePlus ModelArk's
// reference kept in the repo (docs/providers/reference/vendorB-video-generation.json): the adapter's requests and
// the emulator's answers must fit its schemas, and its own examples must go through both. A disagreement
// between the emulator and the reference fails here.

type Json = Record<string, unknown>;

interface Reference {
  createRequest: object;
  createResponse: object;
  task: object;
  errorResponse: object;
  chatRequest: object;
  chatResponse: object;
  examples: { createRequest: Json; createResponse: Json; task: Json; failedTask: Json };
}

const reference = loadReference<Reference>("vendorB-video-generation.json");
const createRequestSchema = schema(reference.createRequest);
const createResponseSchema = schema(reference.createResponse);
const taskSchema = schema(reference.task);
const errorSchema = schema(reference.errorResponse);
const chatRequestSchema = schema(reference.chatRequest);
const chatResponseSchema = schema(reference.chatResponse);

function fixedAnswers(answers: Record<string, Json>) {
  return startRecorder(answerByMethod(answers));
}

const { emulator, proxy } = emulatorBehindRecorder(["authorization"]);

function endpointAt(baseUrl: string): ProviderEndpoint {
  return { baseUrl, apiKey: "contract-key", ids: DEFAULT_VENDOR_IDS.vendorB };
}

const TASKS = "/vendorB/api/v3/contents/generations/tasks";

async function emulatorCall(method: string, pathname: string, body?: unknown): Promise<{ status: number; json: Json }> {
  return callEmulator<Json>(emulator.url, method, pathname, body, { authorization: "Bearer contract-key" });
}

// The reference's request example without its media (the emulator cannot reach the vendor's sample files),
// at the emulator's smallest frame so the clip renders quickly.
function exampleTextRequest(): Json {
  const example = reference.examples.createRequest as { content: Json[] };
  return { ...example, content: example.content.filter((item) => item.type === "text"), resolution: "480p", duration: 4 };
}

function media(kind: "image" | "video" | "audio", name: string): ResolvedMediaInput {
  const picture = kind === "audio" ? { width: null, height: null } : { width: 1280, height: 720 };
  return { url: `https://files.example/${name}`, kind, format: kind === "image" ? "png" : kind === "video" ? "mp4" : "mp3", ...picture, duration_seconds: kind === "image" ? 0 : 3, has_audio: kind !== "image" };
}

describe("the reference copy", () => {
  it("accepts its own examples", () => {
    expect(createRequestSchema.safeParse(reference.examples.createRequest).success).toBe(true);
    expect(createResponseSchema.safeParse(reference.examples.createResponse).success).toBe(true);
    expect(taskSchema.safeParse(reference.examples.task).success).toBe(true);
    expect(taskSchema.safeParse(reference.examples.failedTask).success).toBe(true);
  });

  it.each([
    ["a task_type", { task_type: "video_edit" }],
    ["a negative_prompt", { negative_prompt: "blur" }],
    ["a prompt_extend switch", { prompt_extend: false }],
    ["a source_video role", { content: [{ type: "video_url", video_url: { url: "https://x/v.mp4" }, role: "source_video" }] }],
    ["a reference_role", { content: [{ type: "image_url", image_url: { url: "https://x/i.png" }, role: "reference_image", reference_role: "subject" }] }],
    ["a 4K resolution", { resolution: "2160p" }],
  ])("refuses what the old adapter sent or the vendor has not: %s", (_case, change) => {
    expect(createRequestSchema.safeParse({ ...reference.examples.createRequest, ...change }).success).toBe(false);
  });

  it("refuses a task that reports a progress percentage or a file_format, which the reference's task has not", () => {
    expect(taskSchema.safeParse({ ...reference.examples.task, progress: 35 }).success).toBe(false);
    expect(taskSchema.safeParse({ ...reference.examples.task, file_format: "mp4" }).success).toBe(false);
  });
});

describe("the emulator answers as the reference does", () => {
  it("creates the reference's example task and reads it as the reference's task object until it succeeds", async () => {
    const created = await emulatorCall("POST", TASKS, exampleTextRequest());
    expect(created.status).toBe(200);
    expect(createResponseSchema.safeParse(created.json).success).toBe(true);
    let task: Json = {};
    // The emulator renders the clip for real: it reads running until the render is done.
    for (let read = 0; read < 600 && task.status !== "succeeded"; read++) {
      if (read > 0) await delay(200);
      task = (await emulatorCall("GET", `${TASKS}/${String(created.json.id)}`)).json;
      expect(taskSchema.safeParse(task).success, JSON.stringify(task)).toBe(true);
      expect(["queued", "running", "succeeded"]).toContain(task.status);
    }
    expect(task).toMatchObject({ status: "succeeded", model: "dreamina-seedance-2-0-260128", ratio: "16:9", duration: 4, error: null });
    const video = await fetch((task.content as { video_url: string }).video_url);
    expect(video.status).toBe(200);
  });

  it.each([
    ["our own model id", { model: "vendorB-2" }, 404, "InvalidEndpointOrModel.NotFound"],
    ["a task_type of ours", { task_type: "video_edit" }, 400, "InvalidParameter"],
    ["a negative_prompt of ours", { negative_prompt: "blur" }, 400, "InvalidParameter"],
    ["a role of ours", { content: [{ type: "text", text: "x" }, { type: "video_url", video_url: { url: "https://x/v.mp4" }, role: "source_video" }] }, 400, "InvalidParameter"],
    ["a file_format (the vendor answers MP4 only)", { file_format: "mov" }, 400, "InvalidParameter"],
    ["a duration past the reference's 15 s", { model: "dreamina-seedance-2-5-260628", duration: 16 }, 400, "InvalidParameter"],
  ])("refuses %s with the reference's error body", async (_case, change, status, code) => {
    const answer = await emulatorCall("POST", TASKS, { ...exampleTextRequest(), ...change });
    expect(answer.status).toBe(status);
    expect(errorSchema.safeParse(answer.json).success).toBe(true);
    expect((answer.json.error as { code: string }).code).toBe(code);
  });

  it("cancels a waiting task with DELETE, after which it reads cancelled", async () => {
    const created = await emulatorCall("POST", TASKS, exampleTextRequest());
    const deleted = await emulatorCall("DELETE", `${TASKS}/${String(created.json.id)}`);
    expect(deleted.status).toBe(200);
    const task = (await emulatorCall("GET", `${TASKS}/${String(created.json.id)}`)).json;
    expect(taskSchema.safeParse(task).success).toBe(true);
    expect(task.status).toBe("cancelled");
  });
});

describe("the adapter's requests fit the reference", () => {
  it.each(VIDEO_MODELS.filter((model) => model.family === "vendorB").map((model) => model.id))(
    "creates a %s task by the vendor's model id, and the emulator runs it",
    async (model) => {
      const input = model === "vendorB-2-mini" ? { prompt: "A paper boat" } : { prompt: "A paper boat", resolution: "480p", duration: 4, seed: 7 };
      const outcome = await submitVendorBVideo(endpointAt(`${proxy.url}/vendorB`), videoRequest("text_to_video", model, input), AbortSignal.timeout(60_000));
      const sent = proxy.requests[0]?.body as Json;
      expect(createRequestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
      expect(sent.model).toBe(DEFAULT_VENDOR_IDS.vendorB?.models[model]);
      expect(outcome).toMatchObject({ status: "pending" });
    },
  );

  it("says in the text what the reference has no field for: reference parts, voices, driving audio, what to avoid", async () => {
    const vendor = await fixedAnswers({ POST: reference.examples.createResponse });
    try {
      const request = videoRequest("reference_to_video", "vendorB-2.5", {
        prompt: "They meet at a market",
        negative_prompt: "blur",
        web_search: true,
        references: [
          { kind: "image", media: media("image", "hero.png"), role: "subject", reference_voice: media("audio", "voice.mp3") },
          { kind: "video", media: media("video", "motion.mp4") },
          { kind: "audio", media: media("audio", "music.mp3"), role: "background music" },
        ],
      });
      await submitVendorBVideo(endpointAt(vendor.url), request, AbortSignal.timeout(60_000));
      const sent = vendor.requests[0]?.body as { content: Json[] } & Json;
      expect(createRequestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
      expect(sent.tools).toEqual([{ type: "web_search" }]);
      expect(sent.content.map((item) => item.role ?? item.type)).toEqual(["text", "reference_image", "reference_audio", "reference_video", "reference_audio"]);
      expect(sent.content[0]?.text).toBe(
        ["Image 1 is the subject.", "Audio 1 is the voice of image 1.", "Audio 2 is the background music.", "Avoid: blur.", "They meet at a market"].join("\n"),
      );
    } finally {
      await vendor.close();
    }
  });

  it.each([
    [
      "video_edit",
      videoRequest("video_edit", "vendorB-2.5", { instruction: "Make it night", source_video: media("video", "source.mp4"), audio_setting: "origin", resolution: "480p" }),
      "Edit video 1.\nKeep the original audio of video 1.\nMake it night",
    ],
    [
      "video_extend",
      videoRequest("video_extend", "vendorB-2.5", { instruction: "The boat sails on", video: media("video", "source.mp4"), direction: "before", duration: 6, resolution: "480p" }),
      "Extend video 1 at its start.\nThe boat sails on",
    ],
  ])("sends a %s as a reference_video named in the text, with the ratio adaptive", async (_capability, request, text) => {
    const vendor = await fixedAnswers({ POST: reference.examples.createResponse });
    try {
      await submitVendorBVideo(endpointAt(vendor.url), request, AbortSignal.timeout(60_000));
      const sent = vendor.requests[0]?.body as { content: Json[] } & Json;
      expect(createRequestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
      expect(sent.ratio).toBe("adaptive");
      expect(sent.content).toEqual([
        { type: "text", text },
        { type: "video_url", video_url: { url: "https://files.example/source.mp4" }, role: "reference_video" },
      ]);
    } finally {
      await vendor.close();
    }
  });

  it("sends no container field, which the reference has not, and reads the task's video as MP4", async () => {
    const vendor = await fixedAnswers({ POST: reference.examples.createResponse, GET: reference.examples.task });
    try {
      const request = videoRequest("text_to_video", "vendorB-2.5", { prompt: "x", resolution: "480p", duration: 4, output_format: "mov" });
      await submitVendorBVideo(endpointAt(vendor.url), request, AbortSignal.timeout(60_000));
      const sent = vendor.requests[0]?.body as Json;
      expect(createRequestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
      expect(sent).not.toHaveProperty("file_format");
      const outcome = await pollVendorBVideo(endpointAt(vendor.url), String(reference.examples.createResponse.id), request, AbortSignal.timeout(60_000));
      expect(outcome).toMatchObject({ status: "done", outputs: [{ kind: "video", format: "mp4" }] });
    } finally {
      await vendor.close();
    }
  });

  it("sends first and last frames by the reference's roles", async () => {
    const vendor = await fixedAnswers({ POST: reference.examples.createResponse });
    try {
      const request = videoRequest("frames_to_video", "vendorB-2", { first_frame: media("image", "a.png"), last_frame: media("image", "b.png"), resolution: "480p", duration: 4 });
      await submitVendorBVideo(endpointAt(vendor.url), request, AbortSignal.timeout(60_000));
      const sent = vendor.requests[0]?.body as { content: Json[] } & Json;
      expect(createRequestSchema.safeParse(sent).success).toBe(true);
      expect(sent.content.map((item) => item.role)).toEqual(["first_frame", "last_frame"]);
    } finally {
      await vendor.close();
    }
  });

  it("asks the enhancer's Seed model for a rewrite without reasoning, and the emulator answers the reference's completion", async () => {
    const request: ProviderRequestOf<"video_prompt_enhancement"> = {
      taskId: "task_contract",
      capability: "video_prompt_enhancement",
      model: "vendorB-2-prompt-enhancer",
      input: { prompt: "A fox in the snow", model: "vendorB-2-prompt-enhancer", duration: 8, aspect_ratio: "9:16" },
    };
    const outcome = await enhanceVendorBPrompt(endpointAt(`${proxy.url}/vendorB`), request, AbortSignal.timeout(60_000));
    const sent = proxy.requests[0]?.body as Json;
    expect(chatRequestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
    expect(sent).toMatchObject({ model: "seed-2-0-pro-260328", thinking: { type: "disabled" } });
    expect(outcome).toMatchObject({ status: "done" });
    const answer = await emulatorCall("POST", "/vendorB/api/v3/chat/completions", sent);
    expect(chatResponseSchema.safeParse(answer.json).success, JSON.stringify(answer.json)).toBe(true);
  });
});

describe("the reference's answers replayed through the adapter", () => {
  it("takes the created example's id and reads the succeeded example's video", async () => {
    const vendor = await fixedAnswers({ POST: reference.examples.createResponse, GET: reference.examples.task });
    try {
      const endpoint = endpointAt(vendor.url);
      const request = videoRequest("text_to_video", "vendorB-2", { prompt: "x", resolution: "480p", duration: 4 });
      const submitted = await submitVendorBVideo(endpoint, request, AbortSignal.timeout(60_000));
      expect(submitted).toMatchObject({ status: "pending", ref: reference.examples.createResponse.id });
      const outcome = await pollVendorBVideo(endpoint, String(reference.examples.createResponse.id), request, AbortSignal.timeout(60_000));
      const content = reference.examples.task.content as { video_url: string };
      expect(outcome).toEqual({ status: "done", outputs: [{ url: content.video_url, kind: "video", format: "mp4" }] });
      expect(vendor.requests[1]).toMatchObject({ method: "GET", path: `/api/v3/contents/generations/tasks/${encodeURIComponent(String(reference.examples.createResponse.id))}` });
    } finally {
      await vendor.close();
    }
  });

  it.each([
    ["the failed example (output flagged)", reference.examples.failedTask, "content_filtered"],
    ["an expired task", { ...reference.examples.failedTask, status: "expired", error: null }, "model_timeout"],
    ["a cancelled task nobody asked to cancel", { ...reference.examples.failedTask, status: "cancelled", error: null }, "model_request_failed"],
  ])("maps %s", async (_case, task, code) => {
    expect(taskSchema.safeParse(task).success).toBe(true);
    const vendor = await fixedAnswers({ GET: task });
    try {
      const request = videoRequest("text_to_video", "vendorB-2", { prompt: "x" });
      const failure = await pollVendorBVideo(endpointAt(vendor.url), "cgt-1", request, AbortSignal.timeout(60_000)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProviderFailure);
      expect(failure).toMatchObject({ code });
    } finally {
      await vendor.close();
    }
  });

  it("cancels with DELETE on the task", async () => {
    const vendor = await fixedAnswers({ DELETE: {} });
    try {
      await cancelVendorBVideo(endpointAt(vendor.url), "cgt-1", AbortSignal.timeout(60_000));
      expect(vendor.requests[0]).toMatchObject({ method: "DELETE", path: "/api/v3/contents/generations/tasks/cgt-1" });
    } finally {
      await vendor.close();
    }
  });
});

describe("the id map", () => {
  it("maps every vendorB model, and nothing else, to an id of the vendor's model list", () => {
    expect(vendorIdProblems(mergeVendorIds({}), ["vendorB"])).toEqual([]);
    expect(Object.values(DEFAULT_VENDOR_IDS.vendorB?.models ?? {}).every((id) => /^(dreamina-seedance-2-|seed-)/.test(id))).toBe(true);
  });
});
