import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VIDEO_CAPABILITIES } from "../../core/capabilities/videos/index.js";
import { balance, startHarness, type ApiResponse, type Harness } from "../support/harness.js";

// Admission of every video endpoint over real HTTP: minimal bodies, SPEC.md's limits at and one past each bound,
// the cross-field rules, and what is held or charged. No worker runs: a 202 `queued` is the admission result.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ credits: "100000" });
});
afterAll(async () => h?.close());

let keyCounter = 0;
function post(path: string, body: unknown): Promise<ApiResponse> {
  return h.request("POST", path, { body, idempotencyKey: `videos-admission-${++keyCounter}` });
}

function expectQueued(response: ApiResponse): void {
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  expect(response.body.status).toBe("queued");
}

function expectInvalid(response: ApiResponse, param: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  expect(response.body.error.code).toBe("invalid_request");
  expect(response.body.error.param).toBe(param);
  expect(response.body.error.details.errors[0].param).toBe(param);
}

const url = (name: string) => ({ type: "url", url: `https://example.com/${name}` });
const imageRef = (i: number) => ({ kind: "image", media: url(`ref-${i}.png`), role: "subject" });

const T2V = "/v1/videos/text-to-video";
const I2V = "/v1/videos/image-to-video";
const FRAMES = "/v1/videos/frames-to-video";
const R2V = "/v1/videos/reference-to-video";
const EDIT = "/v1/videos/edit";
const EXTEND = "/v1/videos/extend";
const ENHANCE = "/v1/videos/prompts/enhance";
const RESPONSES = "/v1/videos/responses";

const EDIT_BODY = { source_video: url("source.mp4"), instruction: "Make it snow." };
const EXTEND_BODY = { video: url("source.mp4"), direction: "after", instruction: "Keep driving.", duration: 10 };
const ENHANCE_BODY = { prompt: "A fox in the snow.", duration: 5, aspect_ratio: "16:9" };
const RESPONSES_BODY = { model: "auto", prompt: "What happens?", video: url("clip.mp4") };

describe("each video endpoint's minimal body", () => {
  it.each(VIDEO_CAPABILITIES.map((c) => [c.path, c] as const))("%s admits its example", async (_path, capability) => {
    const response = await post(capability.path, capability.example);
    expectQueued(response);
    expect(response.body.capability).toBe(capability.id);
  });

  it("admits the smallest bodies SPEC.md allows", async () => {
    expectQueued(await post(T2V, { prompt: "x" }));
    expectQueued(await post(I2V, { image: url("a.png") }));
    expectQueued(await post(FRAMES, { first_frame: url("a.png"), last_frame: url("b.png") }));
    expectQueued(await post(R2V, { references: [imageRef(0)] }));
    expectQueued(await post(EDIT, EDIT_BODY));
    expectQueued(await post(EXTEND, EXTEND_BODY));
    expectQueued(await post(ENHANCE, ENHANCE_BODY));
    expectQueued(await post(RESPONSES, RESPONSES_BODY));
  });

  it("refuses each missing required field by its pointer", async () => {
    expectInvalid(await post(T2V, {}), "/prompt");
    expectInvalid(await post(I2V, { prompt: "go" }), "/image");
    expectInvalid(await post(FRAMES, { first_frame: url("a.png") }), "/last_frame");
    expectInvalid(await post(R2V, { prompt: "go" }), "/references");
    expectInvalid(await post(EDIT, { instruction: "x" }), "/source_video");
    expectInvalid(await post(EDIT, { source_video: url("s.mp4") }), "/instruction");
    for (const field of ["video", "direction", "instruction", "duration"]) {
      const body: Record<string, unknown> = { ...EXTEND_BODY };
      delete body[field];
      expectInvalid(await post(EXTEND, body), `/${field}`);
    }
    for (const field of ["prompt", "duration", "aspect_ratio"]) {
      const body: Record<string, unknown> = { ...ENHANCE_BODY };
      delete body[field];
      expectInvalid(await post(ENHANCE, body), `/${field}`);
    }
    for (const field of ["model", "prompt", "video"]) {
      const body: Record<string, unknown> = { ...RESPONSES_BODY };
      delete body[field];
      expectInvalid(await post(RESPONSES, body), `/${field}`);
    }
  });

  it("refuses unknown fields and malformed option values, accepting nothing partly", async () => {
    expectInvalid(await post(T2V, { prompt: "x", resolutionn: "720p" }), "/resolutionn");
    expectInvalid(await post(T2V, { prompt: "x", output_format: "webm" }), "/output_format");
    expectInvalid(await post(T2V, { prompt: "x", watermark: "yes" }), "/watermark");
    expectInvalid(await post(T2V, { prompt: "x", enhance_prompt: "true" }), "/enhance_prompt");
    expectInvalid(await post(T2V, { prompt: "x", audio: url("a.mp3").url }), "/audio");
    expectInvalid(await post(I2V, { image: { type: "url", url: "http://example.com/a.png" } }), "/image/url");
    expectInvalid(await post(EDIT, { ...EDIT_BODY, source_video: "data:video/mp4;base64,AAAA" }), "/source_video");
    expectInvalid(await post(EDIT, { ...EDIT_BODY, audio_setting: "keep" }), "/audio_setting");
    expectInvalid(await post(R2V, { references: [imageRef(0), { kind: "smell", media: url("x") }] }), "/references/1/kind");
    expectInvalid(await post(RESPONSES, { ...RESPONSES_BODY, detail: "ultra" }), "/detail");
    expectQueued(await post(T2V, { prompt: "x", enhance_prompt: null, output_format: "mp4" }));
    expectQueued(await post(EDIT, { ...EDIT_BODY, audio_setting: "auto" }));
    expectQueued(await post(RESPONSES, { ...RESPONSES_BODY, detail: "high", response_format: "json", temperature: 2 }));
  });
});

describe("SPEC.md limits for videos, at each bound and one past it", () => {
  it("video prompt: 1 to 20000 characters on every endpoint that takes one", async () => {
    const at = "a".repeat(20_000);
    const past = "a".repeat(20_001);
    expectQueued(await post(T2V, { prompt: at }));
    expectQueued(await post(T2V, { prompt: "😀".repeat(20_000) }));
    expectInvalid(await post(T2V, { prompt: past }), "/prompt");
    expectInvalid(await post(T2V, { prompt: "" }), "/prompt");
    for (const [path, body] of [
      [I2V, { image: url("a.png") }],
      [FRAMES, { first_frame: url("a.png"), last_frame: url("b.png") }],
      [R2V, { references: [imageRef(0)] }],
    ] as const) {
      expectQueued(await post(path, { ...body, prompt: at }));
      expectInvalid(await post(path, { ...body, prompt: past }), "/prompt");
      expectInvalid(await post(path, { ...body, prompt: "" }), "/prompt");
    }
  });

  it("instruction: 1 to 20000 characters on edit and extend", async () => {
    for (const [path, body] of [
      [EDIT, EDIT_BODY],
      [EXTEND, EXTEND_BODY],
    ] as const) {
      expectQueued(await post(path, { ...body, instruction: "a".repeat(20_000) }));
      expectInvalid(await post(path, { ...body, instruction: "a".repeat(20_001) }), "/instruction");
      expectInvalid(await post(path, { ...body, instruction: "" }), "/instruction");
    }
  });

  it("reference list: 1 to 50 on reference-to-video", async () => {
    const refs = (n: number) => Array.from({ length: n }, (_, i) => imageRef(i));
    const fifty = await post(R2V, { references: refs(50) });
    expectQueued(fifty);
    expect(fifty.body.resolved_model).toBe("vendorB-2.5");
    expectInvalid(await post(R2V, { references: refs(51) }), "/references");
    expectInvalid(await post(R2V, { references: [] }), "/references");
  });

  it("extend duration: 2 to 30 seconds, a whole number, never auto", async () => {
    expectQueued(await post(EXTEND, { ...EXTEND_BODY, duration: 2 }));
    const thirty = await post(EXTEND, { ...EXTEND_BODY, duration: 30 });
    expectQueued(thirty);
    expect(thirty.body.resolved_model).toBe("vendorC3.0-video-prime");
    for (const duration of [1, 31, 10.5, "auto", "10"]) expectInvalid(await post(EXTEND, { ...EXTEND_BODY, duration }), "/duration");
    expectInvalid(await post(EXTEND, { ...EXTEND_BODY, direction: "sideways" }), "/direction");
    expectQueued(await post(EXTEND, { ...EXTEND_BODY, direction: "before" }));
  });

  it("enhancement: prompt 1 to 7000 characters, duration 4 to 15 seconds, a listed aspect ratio", async () => {
    expectQueued(await post(ENHANCE, { ...ENHANCE_BODY, prompt: "a".repeat(7_000) }));
    expectInvalid(await post(ENHANCE, { ...ENHANCE_BODY, prompt: "a".repeat(7_001) }), "/prompt");
    expectInvalid(await post(ENHANCE, { ...ENHANCE_BODY, prompt: "" }), "/prompt");
    expectQueued(await post(ENHANCE, { ...ENHANCE_BODY, duration: 4 }));
    expectQueued(await post(ENHANCE, { ...ENHANCE_BODY, duration: 15 }));
    for (const duration of [3, 16, 5.5, "auto"]) expectInvalid(await post(ENHANCE, { ...ENHANCE_BODY, duration }), "/duration");
    for (const aspect_ratio of ["21:9", "16:9", "4:3", "1:1", "3:4", "9:16"]) {
      expectQueued(await post(ENHANCE, { ...ENHANCE_BODY, aspect_ratio }));
    }
    expectInvalid(await post(ENHANCE, { ...ENHANCE_BODY, aspect_ratio: "5:4" }), "/aspect_ratio");
  });

  it("video understanding prompt: at most 32000 characters", async () => {
    expectQueued(await post(RESPONSES, { ...RESPONSES_BODY, prompt: "a".repeat(32_000) }));
    expectInvalid(await post(RESPONSES, { ...RESPONSES_BODY, prompt: "a".repeat(32_001) }), "/prompt");
    expectInvalid(await post(RESPONSES, { ...RESPONSES_BODY, prompt: "" }), "/prompt");
  });

  it("duration is a positive whole number or auto; seed is 0 to 2147483647", async () => {
    expectQueued(await post(T2V, { prompt: "x", duration: "auto" }));
    for (const duration of [0, 5.5, "long", null]) expectInvalid(await post(T2V, { prompt: "x", duration }), "/duration");
    expectQueued(await post(T2V, { prompt: "x", seed: 2_147_483_647 }));
    expectQueued(await post(T2V, { prompt: "x", seed: 0 }));
    expectInvalid(await post(T2V, { prompt: "x", seed: 2_147_483_648 }), "/seed");
    expectInvalid(await post(T2V, { prompt: "x", seed: -1 }), "/seed");
  });
});

describe("prompt enhancement rules", () => {
  it("refuses adaptive for a text-only request and accepts it with frames or references", async () => {
    expectInvalid(await post(ENHANCE, { ...ENHANCE_BODY, aspect_ratio: "adaptive" }), "/aspect_ratio");
    expectInvalid(await post(ENHANCE, { ...ENHANCE_BODY, aspect_ratio: "adaptive", references: [] }), "/aspect_ratio");
    expectQueued(await post(ENHANCE, { ...ENHANCE_BODY, aspect_ratio: "adaptive", first_frame: url("a.png") }));
    expectQueued(await post(ENHANCE, { ...ENHANCE_BODY, aspect_ratio: "adaptive", last_frame: url("b.png") }));
    expectQueued(await post(ENHANCE, { ...ENHANCE_BODY, aspect_ratio: "adaptive", references: [imageRef(0)] }));
  });

  it("keeps reference mode and strict-frame mode apart", async () => {
    expectInvalid(await post(ENHANCE, { ...ENHANCE_BODY, references: [imageRef(0)], first_frame: url("a.png") }), "/references");
    expectInvalid(await post(ENHANCE, { ...ENHANCE_BODY, references: [imageRef(0)], last_frame: url("b.png") }), "/references");
    expectQueued(await post(ENHANCE, { ...ENHANCE_BODY, references: [imageRef(0)] }));
    expectQueued(await post(ENHANCE, { ...ENHANCE_BODY, first_frame: url("a.png"), last_frame: url("b.png") }));
  });

  it("accepts any model value of any type and always runs on the enhancer", async () => {
    for (const model of [42, "anything", "vendorB-2", null, { a: 1 }, ["x"]]) {
      const response = await post(ENHANCE, { ...ENHANCE_BODY, model });
      expectQueued(response);
      expect(response.body.model).toBe("auto");
      expect(response.body.resolved_model).toBe("vendorB-2-prompt-enhancer");
    }
  });

  it("holds input tokens (4 characters each, rounded up) plus the maximum output, charging nothing yet", async () => {
    const before = await balance(h);
    const response = await post(ENHANCE, { ...ENHANCE_BODY, prompt: "0123456789" });
    expectQueued(response);
    // 3 input tokens at 0.001/1000 (rounded up to 3 micro) + 2000 output tokens at 0.004/1000 (8000 micro).
    expect((await balance(h)).held - before.held).toBe(8_003n);
    expect(response.body.billing.charged_credits).toBe("0.000000");
  });
});

describe("video understanding", () => {
  it("needs model auto or vendorA-M3 and validates the answer controls against it", async () => {
    const concrete = await post(RESPONSES, { ...RESPONSES_BODY, model: "vendorA-M3" });
    expectQueued(concrete);
    expect(concrete.body.resolved_model).toBe("vendorA-M3");
    const image = await post(RESPONSES, { ...RESPONSES_BODY, model: "vendorF-vision-2.0" });
    expect(image.status).toBe(400);
    expect(image.body.error).toMatchObject({ code: "unsupported_model", param: "/model" });
    const hot = await post(RESPONSES, { ...RESPONSES_BODY, model: "vendorA-M3", temperature: 2.5 });
    expect(hot.status).toBe(422);
    expect(hot.body.error).toMatchObject({ code: "unsupported_option", param: "/temperature" });
    expect(hot.body.error.details.candidate_failures[0]).toMatchObject({
      model: "vendorA-M3",
      code: "unsupported_temperature",
      received: 2.5,
      supported: { min: 0, max: 2 },
    });
    const xml = await post(RESPONSES, { ...RESPONSES_BODY, response_format: "xml" });
    expect(xml.status).toBe(422);
    expect(xml.body.error).toMatchObject({ code: "no_eligible_model", param: "/response_format" });
    expect(xml.body.error.details.candidate_failures[0]).toMatchObject({
      code: "unsupported_response_format",
      received: "xml",
      supported: ["text", "json"],
    });
  });

  it("holds the longest video's seconds at the per-second price, charging nothing until success", async () => {
    const before = await balance(h);
    const response = await post(RESPONSES, RESPONSES_BODY);
    expectQueued(response);
    expect((await balance(h)).held - before.held).toBe(600n * 1_000n);
    expect(response.body.billing.charged_credits).toBe("0.000000");
  });
});

describe("generation billing", () => {
  it("charges the requested seconds at the requested resolution's price", async () => {
    const response = await post(T2V, { prompt: "x", model: "vendorB-2", duration: 10, resolution: "1080p" });
    expectQueued(response);
    // 10 s × 0.18 credits per 1080p second.
    expect(response.body.billing.charged_credits).toBe("1.800000");
  });

  it("charges the model's default duration and resolution when they are omitted or auto", async () => {
    for (const body of [{ prompt: "x" }, { prompt: "x", duration: "auto" }]) {
      const response = await post(T2V, { ...body, model: "vendorC3.0-video" });
      // 5 s default × 0.06 credits per 720p second.
      expect(response.body.billing.charged_credits).toBe("0.300000");
    }
    const mini = await post(I2V, { image: url("a.png"), model: "vendorB-2-mini" });
    expect(mini.body.billing.charged_credits).toBe("0.075000");
  });

  it("charges an extension for its requested final duration", async () => {
    const response = await post(EXTEND, { ...EXTEND_BODY, model: "vendorB-2-mini", duration: 8 });
    expectQueued(response);
    expect(response.body.billing.charged_credits).toBe("0.120000");
    const before = await balance(h);
    const prime = await post(EXTEND, { ...EXTEND_BODY, model: "vendorC3.0-video-prime", duration: 30, resolution: "4k" });
    expect(prime.body.billing.charged_credits).toBe("12.000000");
    expect((await balance(h)).held - before.held).toBe(12_000_000n);
  });
});
