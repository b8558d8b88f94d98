import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProviderRequestOf } from "../../core/providers/served-capabilities.js";
import { ProviderFailure } from "../../core/providers/types.js";
import { answerAboutImages } from "../../core/providers/vendorA/image-understanding.js";
import { answerAboutVideo } from "../../core/providers/vendorA/video-understanding.js";
import { emulatorBehindRecorder, emulatorCall, loadExchangeReference, serveMedia, startRecorder, vendorAEndpoint as endpointAt } from "./contract-support.js";
import { COLOURS, colourSequenceMp4, halvesPng } from "./video-media.js";

// vendorA-M3 reading images and videos through the vendor's OpenAI-compatible chat completions, against the copy
// of its reference kept in the repo (docs/providers/reference/vendorA-chat-completions.json): the adapters'
// requests and the emulator's answers must fit it, and its own request example must go through the emulator.

const reference = loadExchangeReference("vendorA-chat-completions.json");

const { emulator, proxy } = emulatorBehindRecorder(["authorization"]);
let image: { url: string; close(): Promise<void> };
let video: { url: string; close(): Promise<void> };

beforeAll(async () => {
  image = await serveMedia(await halvesPng(64, 32, COLOURS.red!, COLOURS.blue!), "image/png");
  video = await serveMedia(await colourSequenceMp4([COLOURS.green!, COLOURS.yellow!], { width: 64, height: 36 }, null), "video/mp4");
}, 120_000);

afterAll(async () => {
  await Promise.all([image.close(), video.close()]);
});

function imageRequest(count: number, extra: Record<string, unknown> = {}): ProviderRequestOf<"image_to_text"> {
  const images = Array.from({ length: count }, () => ({ type: "artifact", url: image.url, kind: "image" as const, width: 64, height: 32, format: "png", duration_seconds: 0, has_audio: false }));
  return { taskId: "task_contract", capability: "image_to_text", model: "vendorA-M3", input: { prompt: "Which colours?", model: "vendorA-M3", images, detail: "default", ...extra } };
}

function videoRequest(): ProviderRequestOf<"video_to_text"> {
  const input = { url: video.url, kind: "video" as const, format: "mp4", width: 64, height: 36, duration_seconds: 2, has_audio: false };
  return { taskId: "task_contract", capability: "video_to_text", model: "vendorA-M3", input: { prompt: "What happens?", model: "vendorA-M3", video: input, detail: "low" } };
}

async function emulatorChat(body: unknown): Promise<Record<string, unknown>> {
  const { status, json } = await emulatorCall<Record<string, unknown>>(emulator.url, "POST", "/vendorA/v1/chat/completions", body, { authorization: "Bearer contract-key" });
  expect(status).toBe(200);
  return json;
}

describe("the reference copy", () => {
  it("accepts its own request example, and refuses our model id and the old video_understanding shape", () => {
    expect(reference.request.safeParse(reference.examples.request).success).toBe(true);
    expect(reference.request.safeParse({ ...reference.examples.request, model: "vendorA-M3" }).success).toBe(false);
    expect(reference.request.safeParse({ ...reference.examples.request, video: "https://files.example/v.mp4" }).success).toBe(false);
  });
});

describe("the emulator answers as the reference describes", () => {
  it("answers the reference's own request example with a finished reply and its usage", async () => {
    const answer = await emulatorChat(reference.examples.request);
    expect(reference.response.safeParse(answer).success).toBe(true);
    expect(answer).toMatchObject({ choices: [{ finish_reason: "stop", message: { role: "assistant" } }], usage: { total_tokens: expect.any(Number) } });
  });

  it("refuses our own model id with 2013", async () => {
    const answer = await emulatorChat({ ...reference.examples.request, model: "vendorA-M3" });
    expect(answer.base_resp).toMatchObject({ status_code: 2013 });
  });
});

describe("the adapters' requests fit the reference", () => {
  it("image understanding: one user message, the prompt then each image, by the vendor's model id", async () => {
    const outcome = await answerAboutImages(endpointAt(`${proxy.url}/vendorA`), imageRequest(2, { response_format: "json", temperature: 0.2 }), AbortSignal.timeout(60_000));
    expect(proxy.paths).toEqual(["/vendorA/v1/chat/completions"]);
    const sent = proxy.bodies[0] as { model: string; messages: { content: { type: string }[] }[] };
    expect(reference.request.safeParse(sent).success).toBe(true);
    expect(sent.model).toBe("MiniMax-M3");
    expect(sent.messages[0]?.content.map((part) => part.type)).toEqual(["text", "image_url", "image_url"]);
    expect(sent).toMatchObject({ temperature: 0.2, response_format: { type: "json_object" } });
    expect(outcome).toMatchObject({ status: "done", measured: { image_count: 2, input_tokens: expect.any(Number), output_tokens: expect.any(Number) } });
    expect(JSON.parse(outcome.status === "done" ? (outcome.text ?? "") : "")).toMatchObject({ image_count: 2 });
  });

  it("video understanding: the same call with one video_url part, billed the decoded seconds", async () => {
    const outcome = await answerAboutVideo(endpointAt(`${proxy.url}/vendorA`), videoRequest(), AbortSignal.timeout(60_000));
    expect(proxy.paths).toEqual(["/vendorA/v1/chat/completions"]);
    const sent = proxy.bodies[0] as { model: string; messages: { content: { type: string }[] }[] };
    expect(reference.request.safeParse(sent).success).toBe(true);
    expect(sent.model).toBe("MiniMax-M3");
    expect(sent.messages[0]?.content.map((part) => part.type)).toEqual(["text", "video_url"]);
    expect(outcome).toMatchObject({ status: "done", measured: { input_video_seconds: 2 } });
    expect(outcome.status === "done" ? outcome.text : "").toMatch(/\S/);
  });
});

describe("answers in the reference's OpenAI form, replayed through the adapter", () => {
  async function replay(answer: Record<string, unknown>) {
    const vendor = await startRecorder(async (_call, _request, reply) => {
      reply.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
    try {
      return await answerAboutImages(endpointAt(vendor.url), imageRequest(1), AbortSignal.timeout(60_000)).catch((error: unknown) => error);
    } finally {
      await vendor.close();
    }
  }

  const reply = {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1_764_547_200,
    model: "MiniMax-M3",
    choices: [{ index: 0, message: { role: "assistant", content: "Red and blue." }, finish_reason: "stop" }],
    usage: { prompt_tokens: 300, completion_tokens: 4, total_tokens: 304 },
  };

  it("takes a success without base_resp", async () => {
    expect(reference.response.safeParse(reply).success).toBe(true);
    expect(await replay(reply)).toMatchObject({ status: "done", text: "Red and blue.", measured: { input_tokens: 300, output_tokens: 4, image_count: 1 } });
  });

  it("still fails on a non-zero base_resp (1026: safety_rejected)", async () => {
    const failure = await replay({ ...reply, base_resp: { status_code: 1026, status_msg: "input new_sensitive" } });
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect(failure).toMatchObject({ code: "safety_rejected" });
  });
});
