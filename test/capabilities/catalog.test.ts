import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITIES } from "../../core/index.js";
import { renderModelsDoc } from "../../core/published-catalog/models-doc.js";
import { ALL_MODELS } from "../../core/catalog/registry.js";
import { startHarness, type Harness } from "../support/harness.js";
import { specModelLists, specTaskPaths } from "../support/spec-models.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe("the capability table against SPEC.md", () => {
  it("has one entry per task-creating endpoint of SPEC.md", () => {
    expect(CAPABILITIES.map((c) => c.path).sort()).toEqual(specTaskPaths());
  });

  it("lists exactly SPEC.md's models per endpoint, in SPEC order, and the models agree", () => {
    const lists = specModelLists();
    for (const capability of CAPABILITIES) {
      const expected = lists[capability.path];
      if (expected) expect({ path: capability.path, models: capability.modelIds }).toEqual({ path: capability.path, models: expected });
      for (const id of capability.modelIds) {
        const model = ALL_MODELS.find((m) => m.id === id);
        expect(model?.capabilities, `${id} serves ${capability.id}`).toContain(capability.id);
      }
    }
    for (const model of ALL_MODELS) {
      for (const capabilityId of model.capabilities) {
        const capability = CAPABILITIES.find((c) => c.id === capabilityId);
        expect(capability, `${model.id} names capability ${capabilityId}`).toBeDefined();
        if (capability && capability.modelIds.length > 0) expect(capability.modelIds).toContain(model.id);
      }
    }
  });

  it("keeps docs/models.md equal to the registry (regenerate with npm run docs:models)", () => {
    const file = readFileSync(path.resolve(import.meta.dirname, "../../docs/models.md"), "utf8");
    expect(file).toBe(renderModelsDoc());
  });
});

describe("catalog endpoints", () => {
  it("lists models in the OpenAI-compatible form on both paths", async () => {
    const models = await h.request("GET", "/v1/models");
    expect(models.status).toBe(200);
    expect(models.body.object).toBe("list");
    expect(models.body.data.length).toBe(ALL_MODELS.length);
    for (const item of models.body.data) {
      expect(item).toMatchObject({ object: "model", id: expect.any(String), created: expect.any(Number), owned_by: expect.any(String) });
    }
    const catalog = await h.request("GET", "/v1/catalog/models");
    expect(catalog.body).toEqual(models.body);
  });

  it("shows a model card with the constraints and prices billing uses", async () => {
    const card = await h.request("GET", "/v1/catalog/models/vendorA-speech-2.8-turbo");
    expect(card.status).toBe(200);
    expect(card.body).toMatchObject({
      id: "vendorA-speech-2.8-turbo",
      shape: "audio",
      owned_by: "vendorA",
      constraints: { formats: ["mp3", "wav", "opus", "pcm"] },
      prices: [{ meter: "speech_weighted_characters", unit: "character", per: "1000", price_credits: "0.060000" }],
    });
    const unknown = await h.request("GET", "/v1/catalog/models/no-such-model");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
  });

  it("lists capabilities and shows each one's card", async () => {
    const list = await h.request("GET", "/v1/catalog/capabilities");
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual(CAPABILITIES.map((c) => c.id));
    for (const capability of CAPABILITIES) {
      const card = await h.request("GET", `/v1/catalog/capabilities/${capability.id}`);
      expect(card.status).toBe(200);
      expect(card.body.path).toBe(capability.path);
      expect(card.body.model_cards.map((m: { id: string }) => m.id).sort()).toEqual(
        ALL_MODELS.filter((m) => m.capabilities.includes(capability.id)).map((m) => m.id).sort(),
      );
      expect(["generic", "video", "music", "audio", "understanding", "video_prompt_enhancement"]).toContain(card.body.shape);
    }
    const speech = await h.request("GET", "/v1/catalog/capabilities/text_to_speech");
    expect(speech.body).toMatchObject({ shape: "audio", billing_mode: "prepaid", models: ["auto", "vendorA-speech-2.8-hd", "vendorA-speech-2.8-turbo"] });
    const unknown = await h.request("GET", "/v1/catalog/capabilities/teleportation");
    expect(unknown.status).toBe(404);
  });
});
