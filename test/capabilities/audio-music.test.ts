import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITIES, formatCredits } from "../../core/index.js";
import { MUSIC_MODELS } from "../../core/catalog/audio-models.js";
import { balance, startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { specModelLists } from "../support/spec-models.js";

// Admission of the two music endpoints: bounds, the instrumental/lyrics rule, per-model controls and the
// model_options families, exact-model validation versus `auto`, and the prepaid per-track charge. No worker.

const T2M = "/v1/music/text-to-music";
const R2M = "/v1/music/reference-audio-to-music";
const A = "vendorA-music-3.0";
const G = "vendorG-6";
const REFERENCE = { type: "url", url: "https://example.com/reference.mp3" };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ credits: "1000" });
});
afterAll(async () => h?.close());

const post = (path: string, body: unknown, apiKey?: string) =>
  h.request("POST", path, { body, idempotencyKey: randomUUID(), ...(apiKey ? { apiKey } : {}) });
const t2m = (body: Record<string, unknown>) => post(T2M, { model: "auto", prompt: "lo-fi hip hop with warm keys", ...body });
const r2m = (body: Record<string, unknown>) => post(R2M, { reference_audio: REFERENCE, prompt: "acoustic folk cover", ...body });

function expectQueued(response: ApiResponse, model?: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  expect(response.body.status).toBe("queued");
  if (model) expect(response.body.resolved_model).toBe(model);
}

function expectInvalid(response: ApiResponse, param: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  expect(response.body.error).toMatchObject({ code: "invalid_request", param });
}

function expectUnsupported(response: ApiResponse, failure: Record<string, unknown>) {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  const error = response.body.error;
  expect(error.code).toBe("unsupported_option");
  expect(error.param).toBe(error.details.candidate_failures[0].param);
  expect(error.details.candidate_failures).toContainEqual(expect.objectContaining(failure));
}

describe("catalog agreement", () => {
  it("lists SPEC.md's text-to-music models in order; reference audio takes only auto", () => {
    const byId = new Map(CAPABILITIES.map((c) => [c.id, c]));
    expect(byId.get("text_to_music")?.modelIds).toEqual(specModelLists()[T2M]);
    expect(byId.get("reference_audio_to_music")?.modelIds).toEqual([]);
    for (const model of MUSIC_MODELS) expect(model.capabilities).toEqual(["text_to_music", "reference_audio_to_music"]);
    expect(CAPABILITIES.filter((c) => c.area === "music").map((c) => c.billingMode)).toEqual(["prepaid", "prepaid"]);
  });
});

describe("POST /v1/music/text-to-music", () => {
  it("admits the minimal body; auto picks the first model and the reason says so", async () => {
    const response = await t2m({});
    expectQueued(response, A);
    expect(response.body.model).toBe("auto");
    expect(response.body.capability).toBe("text_to_music");
    expect(response.body.model_selection_reason).toMatch(/^auto:/);
  });

  it("requires model and prompt", async () => {
    expectInvalid(await post(T2M, { prompt: "jazz" }), "/model");
    expectInvalid(await post(T2M, { model: "auto" }), "/prompt");
  });

  it("bounds prompt at 1 to 2000 characters (code points)", async () => {
    expectQueued(await t2m({ prompt: "é".repeat(2000) }), A);
    expectInvalid(await t2m({ prompt: "p".repeat(2001) }), "/prompt");
    expectInvalid(await t2m({ prompt: "" }), "/prompt");
  });

  it("refuses lyrics with instrumental true and accepts them without", async () => {
    const refused = await t2m({ instrumental: true, lyrics: "la la la" });
    expectInvalid(refused, "/lyrics");
    expect(refused.body.error.details.errors).toHaveLength(1);
    expectQueued(await t2m({ lyrics: "la la la" }), A);
    expectQueued(await t2m({ instrumental: false, lyrics: "la la la" }), A);
  });

  it("refuses a vocal gender on an instrumental", async () => {
    expectInvalid(await t2m({ instrumental: true, model_options: { vendorG: { vocal_gender: "f" } } }), "/model_options/vendorG/vocal_gender");
  });

  it("validates instrumental per model: the exact model is refused, auto picks the one that has it", async () => {
    expectUnsupported(await t2m({ model: A, instrumental: true }), {
      model: A,
      code: "unsupported_instrumental",
      param: "/instrumental",
      received: true,
      supported: false,
    });
    expectQueued(await t2m({ model: G, instrumental: true }), G);
    const auto = await t2m({ instrumental: true });
    expectQueued(auto, G);
    expect(auto.body.model_selection_reason).toContain(`skipped ${A}`);
  });

  it("quotes each model's prompt, lyrics and title bounds", async () => {
    expectUnsupported(await t2m({ model: G, prompt: "p".repeat(501) }), {
      code: "unsupported_prompt_length",
      param: "/prompt",
      received: 501,
      supported: { max: 500 },
    });
    expectQueued(await t2m({ model: G, prompt: "p".repeat(500) }), G);
    expectUnsupported(await t2m({ model: A, lyrics: "l".repeat(3001) }), {
      code: "unsupported_lyrics_length",
      param: "/lyrics",
      supported: { max: 3000 },
    });
    expectQueued(await t2m({ lyrics: "l".repeat(3001) }), G);
    expectInvalid(await t2m({ lyrics: "l".repeat(5001) }), "/lyrics");
    expectUnsupported(await t2m({ model: G, title: "t".repeat(81) }), { code: "unsupported_title_length", param: "/title", supported: { max: 80 } });
    expectQueued(await t2m({ title: "t".repeat(81) }), A);
  });

  it("refuses the other family's model_options on an exact model; auto follows the family", async () => {
    expectUnsupported(await t2m({ model: A, model_options: { vendorG: { custom_mode: true } } }), {
      model: A,
      code: "unsupported_model_options",
      param: "/model_options/vendorG",
      received: "vendorG",
      supported: ["vendorA"],
    });
    expectUnsupported(await t2m({ model: G, model_options: { vendorA: { lyrics_optimizer: true } } }), {
      model: G,
      param: "/model_options/vendorA",
      supported: ["vendorG"],
    });
    expectQueued(await t2m({ model_options: { vendorG: { custom_mode: true, style_weight: 0.5, vocal_gender: "m" } } }), G);
    expectQueued(await t2m({ model_options: { vendorA: { lyrics_optimizer: true, aigc_watermark: false } } }), A);
  });

  it("answers no_eligible_model when no model honours the whole request", async () => {
    const response = await t2m({ instrumental: true, model_options: { vendorA: { aigc_watermark: true } } });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe("no_eligible_model");
    const failures = response.body.error.details.candidate_failures;
    expect(failures).toContainEqual(expect.objectContaining({ model: A, code: "unsupported_instrumental", param: "/instrumental" }));
    expect(failures).toContainEqual(expect.objectContaining({ model: G, code: "unsupported_model_options", param: "/model_options/vendorA" }));
  });

  it("checks vendorA audio_setting values against the model's lists", async () => {
    const audio = (setting: Record<string, unknown>) => ({ model_options: { vendorA: { audio_setting: setting } } });
    expectQueued(await t2m({ model: A, ...audio({ sample_rate: 32000, bitrate: 128000, format: "wav" }) }), A);
    expectUnsupported(await t2m({ model: A, ...audio({ sample_rate: 22050 }) }), {
      code: "unsupported_sample_rate",
      param: "/model_options/vendorA/audio_setting/sample_rate",
      received: 22050,
      supported: [44100, 16000, 24000, 32000],
    });
    expectUnsupported(await t2m({ model: A, ...audio({ bitrate: 96000 }) }), { code: "unsupported_bitrate", supported: [256000, 32000, 64000, 128000] });
    expectUnsupported(await t2m({ model: A, ...audio({ format: "flac" }) }), { code: "unsupported_format", supported: ["mp3", "wav", "pcm"] });
    expect((await t2m(audio({ format: "flac" }))).body.error.code).toBe("no_eligible_model");
    expectInvalid(await t2m({ model: A, ...audio({ sample_rate: "16000" }) }), "/model_options/vendorA/audio_setting/sample_rate");
    expectInvalid(await t2m({ model: A, ...audio({ channels: 2 }) }), "/model_options/vendorA/audio_setting/channels");
  });

  it("checks vendorG option values against the model's bounds", async () => {
    const g = (options: Record<string, unknown>) => t2m({ model: G, model_options: { vendorG: options } });
    expectQueued(await g({ style_weight: 0, weirdness_constraint: 1, audio_weight: 0.65, negative_tags: "metal, screaming" }), G);
    expectUnsupported(await g({ weirdness_constraint: 1.5 }), {
      code: "unsupported_weirdness_constraint",
      param: "/model_options/vendorG/weirdness_constraint",
      received: 1.5,
      supported: { min: 0, max: 1 },
    });
    expectUnsupported(await g({ vocal_gender: "x" }), { code: "unsupported_vocal_gender", supported: ["m", "f"] });
    expectUnsupported(await g({ negative_tags: "n".repeat(201) }), { code: "unsupported_negative_tags", supported: { max: 200 } });
    expectInvalid(await g({ custom_mode: "yes" }), "/model_options/vendorG/custom_mode");
    expectInvalid(await t2m({ model_options: { vendorX: {} } }), "/model_options/vendorX");
  });

  it("refuses an unknown model with 400 unsupported_model", async () => {
    const response = await t2m({ model: "vendorA-music-2.0" });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: "unsupported_model", param: "/model" });
    expect(response.body.error.details.supported_models).toEqual(["auto", A, G]);
  });
});

describe("POST /v1/music/reference-audio-to-music", () => {
  it("admits the minimal body with auto (omitted model) and requires reference_audio and prompt", async () => {
    const response = await r2m({});
    expectQueued(response, A);
    expect(response.body.model).toBe("auto");
    expect(response.body.capability).toBe("reference_audio_to_music");
    expectQueued(await r2m({ model: "auto", reference_audio: "data:audio/mpeg;base64,SUQz" }), A);
    expectInvalid(await post(R2M, { prompt: "folk" }), "/reference_audio");
    expectInvalid(await post(R2M, { reference_audio: REFERENCE }), "/prompt");
    expectInvalid(await r2m({ reference_audio: { type: "url", url: "http://example.com/a.mp3" } }), "/reference_audio/url");
  });

  it("takes no concrete model", async () => {
    const response = await r2m({ model: G });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: "unsupported_model", param: "/model" });
    expect(response.body.error.details.supported_models).toEqual(["auto"]);
  });

  it("routes an instrumental request to the model that has it, and fails it when none can", async () => {
    expectQueued(await r2m({ instrumental: true }), G);
    expectInvalid(await r2m({ instrumental: true, lyrics: "words" }), "/lyrics");
    const none = await r2m({ instrumental: true, model_options: { vendorA: { lyrics_optimizer: false } } });
    expect(none.status).toBe(422);
    expect(none.body.error.code).toBe("no_eligible_model");
    expect(none.body.error.details.candidate_failures).toContainEqual(
      expect.objectContaining({ model: A, code: "unsupported_instrumental", received: true, supported: false }),
    );
  });

  it("reads the prompt bound from each model's reference_audio_to_music constraints", async () => {
    expectQueued(await r2m({ prompt: "p".repeat(500), instrumental: true }), G);
    expectQueued(await r2m({ prompt: "p".repeat(1000) }), A);
    expectInvalid(await r2m({ prompt: "p".repeat(2001) }), "/prompt");
    const none = await r2m({ prompt: "p".repeat(1001) });
    expect(none.body.error.details.candidate_failures).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ model: A, code: "unsupported_prompt_length", param: "/prompt", supported: { max: 1000 } }),
        expect.objectContaining({ model: G, code: "unsupported_prompt_length", param: "/prompt", supported: { max: 500 } }),
      ]),
    );
  });
});

describe("prepaid per-track charge", () => {
  it("holds and shows each model's track price at admission", async () => {
    const tenant = await h.newTenant("10");
    const before = await balance(h, tenant.tenantId);
    const cases = [
      { path: T2M, body: { model: A, prompt: "ballad" }, micro: 150_000n },
      { path: T2M, body: { model: G, prompt: "ballad" }, micro: 100_000n },
      { path: R2M, body: { reference_audio: REFERENCE, prompt: "ballad" }, micro: 200_000n },
      { path: R2M, body: { reference_audio: REFERENCE, prompt: "ballad", instrumental: true }, micro: 100_000n },
    ];
    let total = 0n;
    for (const c of cases) {
      const response = await post(c.path, c.body, tenant.apiKey);
      expectQueued(response);
      expect(response.body.billing.charged_credits).toBe(formatCredits(c.micro));
      total += c.micro;
    }
    const after = await balance(h, tenant.tenantId);
    expect(after.held - before.held).toBe(total);
    expect(before.available - after.available).toBe(total);
  });

  it("refuses a track the balance cannot cover with 402", async () => {
    const tenant = await h.newTenant("0.149999");
    const response = await post(T2M, { model: A, prompt: "ballad" }, tenant.apiKey);
    expect(response.status).toBe(402);
    expect(response.body.error.code).toBe("insufficient_balance");
    expectQueued(await post(T2M, { model: G, prompt: "ballad" }, tenant.apiKey), G);
  });
});
