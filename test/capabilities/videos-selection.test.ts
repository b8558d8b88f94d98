import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_RETIREMENTS } from "../../core/retirements/retirement.js";
import { VIDEO_MODELS, type VideoConstraints } from "../../core/catalog/video-models.js";
import { UNDERSTANDING_MODELS } from "../../core/catalog/understanding-models.js";
import { VIDEO_CAPABILITIES } from "../../core/capabilities/videos/index.js";
import { videoResponsesCapability } from "../../core/capabilities/videos/responses.js";
import { findPrice } from "../../core/credits/pricing.js";
import { ServiceError } from "../../core/errors/index.js";
import { startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { specModelLists } from "../support/spec-models.js";

// Model-specific video controls go through selection: a concrete model lacking one is refused with the
// specific code, what was received and what the model supports; `auto` takes the first model that has it.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ credits: "100000" });
});
afterAll(async () => h?.close());

let keyCounter = 0;
function post(path: string, body: unknown): Promise<ApiResponse> {
  return h.request("POST", path, { body, idempotencyKey: `videos-selection-${++keyCounter}` });
}

const url = (name: string) => ({ type: "url", url: `https://example.com/${name}` });
const ref = (kind: string, i = 0, extra: Record<string, unknown> = {}) => ({ kind, media: url(`${kind}-${i}`), ...extra });
const refs = (kind: string, n: number) => Array.from({ length: n }, (_, i) => ref(kind, i));

const T2V = { path: "/v1/videos/text-to-video", body: { prompt: "A lighthouse in a storm." } };
const I2V = { path: "/v1/videos/image-to-video", body: { image: url("first.png") } };
const FRAMES = { path: "/v1/videos/frames-to-video", body: { first_frame: url("a.png"), last_frame: url("b.png") } };
const R2V = { path: "/v1/videos/reference-to-video", body: { references: [ref("image")] } };
const EDIT = { path: "/v1/videos/edit", body: { source_video: url("s.mp4"), instruction: "Make it night." } };
const EXTEND = { path: "/v1/videos/extend", body: { video: url("s.mp4"), direction: "after", instruction: "Go on.", duration: 10 } };

interface ControlCase {
  name: string;
  endpoint: { path: string; body: Record<string, unknown> };
  // Merged into the endpoint's body; `undefined` values remove a field.
  control: Record<string, unknown>;
  lacking: string;
  param: string;
  code: string;
  received: unknown;
  supported: unknown;
  auto: string;
}

const CASES: ControlCase[] = [
  { name: "duration", endpoint: T2V, control: { duration: 15 }, lacking: "vendorC3.0-video", param: "/duration", code: "unsupported_duration", received: 15, supported: [5, 10], auto: "vendorA-h3" },
  { name: "resolution", endpoint: T2V, control: { resolution: "4k" }, lacking: "vendorA-h3", param: "/resolution", code: "unsupported_resolution", received: "4k", supported: ["768p", "2k"], auto: "vendorC3.0-video-prime" },
  { name: "aspect_ratio", endpoint: T2V, control: { aspect_ratio: "21:9" }, lacking: "vendorC3.0-video", param: "/aspect_ratio", code: "unsupported_aspect_ratio", received: "21:9", supported: ["16:9", "9:16", "1:1", "4:3", "3:4"], auto: "vendorA-h3" },
  { name: "aspect_ratio on a source-ratio model", endpoint: I2V, control: { aspect_ratio: "16:9" }, lacking: "vendorD-1.1-i2v", param: "/aspect_ratio", code: "unsupported_aspect_ratio", received: "16:9", supported: [], auto: "vendorA-h3" },
  { name: "seed", endpoint: T2V, control: { seed: 2_147_483_647 }, lacking: "vendorD-1.1-t2v", param: "/seed", code: "unsupported_seed", received: 2_147_483_647, supported: false, auto: "vendorC3.0-video" },
  { name: "negative_prompt", endpoint: T2V, control: { negative_prompt: "blur" }, lacking: "vendorA-h3", param: "/negative_prompt", code: "unsupported_negative_prompt", received: true, supported: false, auto: "vendorC3.0-video" },
  { name: "explicit enhance_prompt", endpoint: T2V, control: { enhance_prompt: false }, lacking: "vendorD-1.1-t2v", param: "/enhance_prompt", code: "unsupported_enhance_prompt", received: false, supported: false, auto: "vendorC3.0-video" },
  { name: "explicit enhance_prompt (auto skips)", endpoint: R2V, control: { enhance_prompt: true, references: refs("image", 6) }, lacking: "vendorB-2", param: "/enhance_prompt", code: "unsupported_enhance_prompt", received: true, supported: false, auto: "vendorC3.0-video-prime" },
  { name: "watermark off", endpoint: T2V, control: { watermark: false }, lacking: "vendorD-1.1-t2v", param: "/watermark", code: "unsupported_watermark", received: false, supported: [true], auto: "vendorA-h3" },
  { name: "generate_audio on", endpoint: T2V, control: { generate_audio: true }, lacking: "vendorC2.7-t2v", param: "/generate_audio", code: "unsupported_generate_audio", received: true, supported: [false], auto: "vendorA-h3" },
  { name: "generate_audio off", endpoint: T2V, control: { generate_audio: false }, lacking: "vendorA-h3", param: "/generate_audio", code: "unsupported_generate_audio", received: false, supported: [true], auto: "vendorC3.0-video" },
  { name: "web_search", endpoint: T2V, control: { web_search: true }, lacking: "vendorA-h3", param: "/web_search", code: "unsupported_web_search", received: true, supported: [false], auto: "vendorB-2" },
  { name: "return_last_frame", endpoint: T2V, control: { return_last_frame: true }, lacking: "vendorA-h3", param: "/return_last_frame", code: "unsupported_return_last_frame", received: true, supported: [false], auto: "vendorC3.0-video-prime" },
  { name: "mov output", endpoint: T2V, control: { output_format: "mov" }, lacking: "vendorA-h3", param: "/output_format", code: "unsupported_output_format", received: "mov", supported: ["mp4"], auto: "vendorC3.0-video-prime" },
  { name: "driving audio (text-to-video)", endpoint: T2V, control: { audio: url("beat.mp3") }, lacking: "vendorA-h3", param: "/audio", code: "unsupported_driving_audio", received: true, supported: false, auto: "vendorC3.0-video" },
  { name: "driving audio (image-to-video)", endpoint: I2V, control: { driving_audio: url("beat.mp3") }, lacking: "vendorD-1.1-i2v", param: "/driving_audio", code: "unsupported_driving_audio", received: true, supported: false, auto: "vendorC3.0-video" },
  { name: "driving audio (frames-to-video)", endpoint: FRAMES, control: { driving_audio: url("beat.mp3") }, lacking: "vendorB-2-fast", param: "/driving_audio", code: "unsupported_driving_audio", received: true, supported: false, auto: "vendorC3.0-video" },
  { name: "last-frame-only", endpoint: FRAMES, control: { first_frame: undefined }, lacking: "vendorC3.0-video", param: "/first_frame", code: "unsupported_frame_mode", received: "last_only", supported: ["first_and_last"], auto: "vendorA-h3" },
  { name: "video reference kind", endpoint: R2V, control: { references: [ref("image"), ref("video")] }, lacking: "vendorD-1.1-r2v", param: "/references/1/kind", code: "unsupported_reference_kind", received: "video", supported: ["image"], auto: "vendorA-h3" },
  { name: "audio reference kind", endpoint: R2V, control: { references: [ref("audio")] }, lacking: "vendorC2.7-r2v", param: "/references/0/kind", code: "unsupported_reference_kind", received: "audio", supported: ["image", "video"], auto: "vendorC3.0-video" },
  { name: "per-kind reference count", endpoint: R2V, control: { references: refs("image", 5) }, lacking: "vendorC2.7-r2v", param: "/references", code: "unsupported_reference_count", received: { kind: "image", count: 5 }, supported: { kind: "image", max: 3 }, auto: "vendorA-h3" },
  { name: "total reference count", endpoint: R2V, control: { references: [...refs("image", 5), ...refs("video", 3), ...refs("audio", 2)] }, lacking: "vendorC3.0-video", param: "/references", code: "unsupported_reference_count", received: 10, supported: 9, auto: "vendorC3.0-video-prime" },
  { name: "reference_voice", endpoint: R2V, control: { references: [ref("image", 0, { reference_voice: url("voice.wav") })] }, lacking: "vendorA-h3", param: "/references/0/reference_voice", code: "unsupported_reference_voice", received: true, supported: false, auto: "vendorC3.0-video" },
  { name: "edit references", endpoint: EDIT, control: { references: [ref("image")] }, lacking: "vendorD-1.0-video-edit", param: "/references/0/kind", code: "unsupported_reference_kind", received: "image", supported: [], auto: "vendorC3.0-video" },
  { name: "audio_setting origin", endpoint: EDIT, control: { audio_setting: "origin" }, lacking: "vendorD-1.0-video-edit", param: "/audio_setting", code: "unsupported_audio_setting", received: "origin", supported: ["auto"], auto: "vendorC3.0-video" },
  { name: "edit duration", endpoint: EDIT, control: { duration: 3 }, lacking: "vendorC3.0-video", param: "/duration", code: "unsupported_duration", received: 3, supported: [5, 10], auto: "vendorC2.7-videoedit" },
  { name: "extend max duration", endpoint: EXTEND, control: { duration: 12 }, lacking: "vendorC2.7-i2v", param: "/duration", code: "unsupported_duration", received: 12, supported: { min: 2, max: 10 }, auto: "vendorC3.0-video" },
  { name: "extend shorter than Seedance makes", endpoint: EXTEND, control: { duration: 3 }, lacking: "vendorB-2", param: "/duration", code: "unsupported_duration", received: 3, supported: { min: 4, max: 15 }, auto: "vendorC3.0-video" },
  { name: "extend past most models", endpoint: EXTEND, control: { duration: 20 }, lacking: "vendorB-2", param: "/duration", code: "unsupported_duration", received: 20, supported: { min: 4, max: 15 }, auto: "vendorC3.0-video-prime" },
  { name: "extend references", endpoint: EXTEND, control: { references: [ref("video")] }, lacking: "vendorC2.7-i2v", param: "/references/0/kind", code: "unsupported_reference_kind", received: "video", supported: [], auto: "vendorC3.0-video" },
];

function bodyWith(c: ControlCase, model: string): Record<string, unknown> {
  const body: Record<string, unknown> = { ...c.endpoint.body, ...c.control, model };
  for (const [key, value] of Object.entries(c.control)) if (value === undefined) delete body[key];
  return body;
}

describe("model-specific video controls", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s: refused by a concrete model lacking it, honoured by auto", async (_name, c) => {
    const refused = await post(c.endpoint.path, bodyWith(c, c.lacking));
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.error.code).toBe("unsupported_option");
    expect(refused.body.error.param).toBe(c.param);
    expect(refused.body.error.details.candidate_failures[0]).toEqual({
      model: c.lacking,
      code: c.code,
      param: c.param,
      message: expect.any(String),
      received: c.received,
      supported: c.supported,
    });

    const chosen = await post(c.endpoint.path, bodyWith(c, "auto"));
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(202);
    expect(chosen.body.model).toBe("auto");
    expect(chosen.body.resolved_model).toBe(c.auto);
    expect(chosen.body.model_selection_reason).toMatch(/^auto: /);
    // The request is admitted as sent: nothing dropped, nothing changed.
    for (const [key, value] of Object.entries(c.control)) expect(chosen.body.input[key]).toEqual(value);
  });

  it("a concrete model that has the control admits it unchanged", async () => {
    const response = await post(R2V.path, { model: "vendorB-2.5", references: [ref("audio", 0, { reference_voice: url("v.wav") })], web_search: true });
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    expect(response.body).toMatchObject({ model: "vendorB-2.5", resolved_model: "vendorB-2.5", model_selection_reason: null });
  });

  it("answers no_eligible_model, listing every candidate's rejection, when no model has it", async () => {
    const response = await post(T2V.path, { ...T2V.body, duration: 60, aspect_ratio: "7:3" });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe("no_eligible_model");
    expect(response.body.error.param).toBe("/duration");
    const failures: { model: string; code: string }[] = response.body.error.details.candidate_failures;
    const t2v = VIDEO_CAPABILITIES.find((c) => c.id === "text_to_video")!;
    expect([...new Set(failures.map((f) => f.model))]).toEqual(t2v.modelIds);
    for (const model of t2v.modelIds) {
      expect(failures.filter((f) => f.model === model).map((f) => f.code)).toEqual(["unsupported_duration", "unsupported_aspect_ratio"]);
    }
    const videos = await post(R2V.path, { references: refs("video", 11) });
    expect(videos.status).toBe(422);
    expect(videos.body.error).toMatchObject({ code: "no_eligible_model", param: "/references" });
    // Each control alone has a model (4k: prime; web search: vendorB-2.5), the pair has none.
    const pair = await post(EXTEND.path, { ...EXTEND.body, duration: 30, resolution: "4k", web_search: true });
    expect(pair.status).toBe(422);
    expect(pair.body.error.code).toBe("no_eligible_model");
  });
});

describe("model ids", () => {
  it("refuses an unknown model, or one of another endpoint, with 400 unsupported_model", async () => {
    for (const [endpoint, model] of [
      [T2V, "vendorX-video"],
      [T2V, "vendorD-1.1-i2v"],
      [FRAMES, "vendorD-1.1-i2v"],
      [EDIT, "vendorA-h3"],
      [EXTEND, "vendorC2.7-t2v"],
      [R2V, "vendorB-2-prompt-enhancer"],
    ] as const) {
      const response = await post(endpoint.path, { ...endpoint.body, model });
      expect(response.status, `${endpoint.path} ${model}`).toBe(400);
      expect(response.body.error).toMatchObject({ code: "unsupported_model", param: "/model" });
      expect(response.body.error.details.supported_models[0]).toBe("auto");
    }
  });

  it("lists exactly SPEC.md's models per endpoint, in its order, and each model names its endpoints", () => {
    const lists = specModelLists();
    for (const capability of VIDEO_CAPABILITIES) {
      const expected = capability.id === "video_prompt_enhancement" ? [] : lists[capability.path];
      expect({ path: capability.path, models: capability.modelIds }).toEqual({ path: capability.path, models: expected });
    }
    for (const model of VIDEO_MODELS) {
      const serving = VIDEO_CAPABILITIES.filter((c) => c.modelIds.includes(model.id)).map((c) => c.id);
      expect({ model: model.id, capabilities: [...model.capabilities].sort() }).toEqual({ model: model.id, capabilities: serving.sort() });
    }
  });
});

describe("video model data", () => {
  it("keeps defaults among the offered values and prices every resolution", () => {
    for (const { id, constraints: c, prices } of VIDEO_MODELS) {
      expect(c.durations, id).toContain(c.default_duration);
      expect(c.resolutions, id).toContain(c.default_resolution);
      if (c.default_aspect_ratio !== null) expect(c.aspect_ratios, id).toContain(c.default_aspect_ratio);
      else expect(c.aspect_ratios, id).toEqual([]);
      expect(c.output_formats, id).toContain("mp4");
      for (const resolution of c.resolutions) expect(findPrice(prices, "output_video_seconds", { resolution }).when).toEqual({ resolution });
      expect(prices.length, id).toBe(c.resolutions.length);
      expect(JSON.parse(JSON.stringify(c)), id).toEqual(c);
    }
  });

  it("has, for every model-specific control, a model of each endpoint that offers it and one that lacks it", () => {
    const offers: Record<string, (c: VideoConstraints) => boolean> = {
      seed: (c) => c.seed,
      negative_prompt: (c) => c.negative_prompt,
      enhance_prompt: (c) => c.enhance_prompt,
      watermark_off: (c) => c.watermark.includes(false),
      generate_audio: (c) => c.generate_audio.includes(true),
      mov: (c) => c.output_formats.includes("mov"),
      web_search: (c) => c.web_search.includes(true),
      return_last_frame: (c) => c.return_last_frame.includes(true),
      aspect_ratio_21_9: (c) => c.aspect_ratios.includes("21:9"),
      resolution_1080p: (c) => c.resolutions.includes("1080p"),
      video_references: (c) => c.references.max_per_kind.video > 0,
    };
    for (const capability of VIDEO_CAPABILITIES.filter((c) => c.billingMode === "prepaid")) {
      const models = VIDEO_MODELS.filter((m) => capability.modelIds.includes(m.id));
      for (const [control, has] of Object.entries(offers)) {
        if (control === "video_references" && capability.id !== "reference_to_video") continue;
        expect(models.some((m) => has(m.constraints)), `${capability.id}: someone offers ${control}`).toBe(true);
        expect(models.some((m) => !has(m.constraints)), `${capability.id}: someone lacks ${control}`).toBe(true);
      }
    }
  });
});

describe("video understanding context window", () => {
  // SPEC.md's 32000-character prompt fits vendorA-M3's window, so HTTP cannot reach this rule; prepare can.
  const ctx = { tenantId: "t", isFamilyLive: () => true, lifecycle: { schedule: NO_RETIREMENTS, now: new Date() }, findVoice: async () => null, known: { body: {}, media: [] } };
  const model = UNDERSTANDING_MODELS.find((m) => m.id === "vendorA-M3")!;
  const limit = model.constraints.context_window_tokens * 4;
  const ask = (requested: string, characters: number) =>
    videoResponsesCapability.prepare(
      { model: requested, prompt: "a".repeat(characters), video: { type: "url", url: "https://example.com/clip.mp4" }, detail: "default" },
      ctx,
    );

  it("admits a prompt that fills the window and refuses one past it as context_length_exceeded", async () => {
    await expect(ask("vendorA-M3", limit)).resolves.toMatchObject({ resolvedModel: "vendorA-M3" });
    const refused = await ask("vendorA-M3", limit + 1).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ code: "context_length_exceeded", param: "/prompt" });
    expect((refused as ServiceError).httpStatus).toBe(422);
    expect((refused as ServiceError).details?.candidate_failures).toEqual([
      expect.objectContaining({ model: "vendorA-M3", received: model.constraints.context_window_tokens + 1, supported: model.constraints.context_window_tokens }),
    ]);
    await expect(ask("auto", limit + 1)).rejects.toMatchObject({ code: "no_eligible_model", param: "/prompt" });
  });
});
