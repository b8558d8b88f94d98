import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMAGE_CAPABILITIES } from "../../core/capabilities/images/index.js";
import { IMAGE_MODELS } from "../../core/catalog/image-models.js";
import { startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { specModelLists } from "../support/spec-models.js";
import { expectInvalid, expectNoEligibleModel, expectQueued, expectUnknownModel, expectUnsupported, poster } from "./images-support.js";

// POST /v1/images/generations, and the image option fields every image creation endpoint shares.
let h: Harness;
let generate: (body: unknown) => Promise<ApiResponse>;
beforeAll(async () => {
  h = await startHarness({ credits: "1000" });
  generate = poster(h, "/v1/images/generations");
});
afterAll(async () => h?.close());

const PROMPT = "A lighthouse at dawn";
const ALL_MODELS = IMAGE_MODELS.length;

describe("the image endpoints in the table", () => {
  it("come in the order generations, image-to-image, edits, responses", () => {
    expect(IMAGE_CAPABILITIES.map((c) => [c.id, c.path, c.billingMode])).toEqual([
      ["text_to_image", "/v1/images/generations", "prepaid"],
      ["image_to_image", "/v1/images/image-to-image", "prepaid"],
      ["image_edit", "/v1/images/edits", "prepaid"],
      ["image_to_text", "/v1/images/responses", "postpaid"],
    ]);
  });

  it("list exactly SPEC.md's models, in its order, and every model agrees", () => {
    const lists = specModelLists();
    for (const capability of IMAGE_CAPABILITIES.slice(0, 3)) {
      expect(capability.modelIds).toEqual(lists[capability.path]);
      for (const model of IMAGE_MODELS) expect(model.capabilities).toContain(capability.id);
    }
    expect(IMAGE_CAPABILITIES[3]?.modelIds).toEqual(["vendorA-M3", "vendorF-vision-2.0"]);
  });
});

describe("the image catalog", () => {
  // Selection only discriminates when, for every control, some model has it and some model lacks it.
  const varies = (has: (c: (typeof IMAGE_MODELS)[number]["constraints"]) => boolean) => {
    const flags = IMAGE_MODELS.map((m) => has(m.constraints));
    return flags.includes(true) && flags.includes(false);
  };

  it("has, for every model-specific control, a model with it and one without", () => {
    expect(varies((c) => c.counts.includes(3))).toBe(true);
    expect(varies((c) => c.canvas_tiers.includes("4K"))).toBe(true);
    expect(varies((c) => c.canvas_tiers.includes("1K"))).toBe(true);
    expect(varies((c) => c.canvas_aspects.includes("21:9"))).toBe(true);
    expect(varies((c) => c.seed)).toBe(true);
    expect(varies((c) => c.negative_prompt)).toBe(true);
    expect(varies((c) => c.enhance_prompt.length > 0)).toBe(true);
    expect(varies((c) => c.reasoning.includes(true))).toBe(true);
    expect(varies((c) => c.reasoning.includes(false))).toBe(true);
    expect(varies((c) => c.output_relationships.includes("sequence"))).toBe(true);
    expect(varies((c) => c.palette)).toBe(true);
    expect(varies((c) => c.max_edit_regions > 0)).toBe(true);
    expect(varies((c) => c.max_input_images > 1)).toBe(true);
  });

  it("offers every endpoint default on every model, so an omitted control never narrows selection", () => {
    for (const { constraints: c } of IMAGE_MODELS) {
      expect(c.counts).toContain(1);
      expect(c.canvas_tiers).toContain("2K");
      expect(c.canvas_aspects).toEqual(expect.arrayContaining(["16:9", "source"]));
      expect(c.output_relationships).toContain("independent");
    }
  });
});

describe("POST /v1/images/generations admission", () => {
  it("admits a prompt alone with the defaults applied", async () => {
    const response = await generate({ prompt: PROMPT });
    expectQueued(response, "text_to_image", "vendorE-image-2.5-flare");
    expect(response.body.model).toBe("auto");
    expect(response.body.input).toMatchObject({
      prompt: PROMPT,
      model: "auto",
      count: 1,
      canvas: { type: "preset", tier: "2K", aspect: "16:9" },
      output_relationship: "independent",
    });
    expect(response.body.billing.charged_credits).toBe("0.040000");
  });

  it("charges count × the model's per-image price at the canvas tier", async () => {
    const two = await generate({ prompt: PROMPT, count: 2 });
    expect(two.body.billing.charged_credits).toBe("0.080000");
    const fourK = await generate({ prompt: PROMPT, count: 3, canvas: { tier: "4K" } });
    expectQueued(fourK, "text_to_image", "vendorF-image-3.0-pro");
    expect(fourK.body.billing.charged_credits).toBe("0.225000");
    const oneK = await generate({ prompt: PROMPT, count: 4, canvas: { tier: "1K", aspect: "1:1" } });
    expect(oneK.body.billing.charged_credits).toBe("0.120000");
    const concrete = await generate({ prompt: PROMPT, model: "vendorC2.7-image-pro", count: 4, canvas: { tier: "4K" } });
    expectQueued(concrete, "text_to_image", "vendorC2.7-image-pro");
    expect(concrete.body.billing.charged_credits).toBe("0.360000");
    const cheap = await generate({ prompt: PROMPT, model: "image-01-live", count: 3 });
    expect(cheap.body.billing.charged_credits).toBe("0.030000");
  });

  it("admits every listed model on its own", async () => {
    for (const model of IMAGE_MODELS) {
      expectQueued(await generate({ prompt: PROMPT, model: model.id }), "text_to_image", model.id);
    }
  });

  it("refuses an unknown model with 400 unsupported_model at /model", async () => {
    expectUnknownModel(await generate({ prompt: PROMPT, model: "vendorE-image-9" }));
    expectUnknownModel(await generate({ prompt: PROMPT, model: "vendorA-M3" }));
  });
});

describe("image option fields", () => {
  it("prompt is required, non-empty and not only whitespace", async () => {
    expectInvalid(await generate({}), "/prompt");
    expectInvalid(await generate({ prompt: "" }), "/prompt");
    expectInvalid(await generate({ prompt: "   " }), "/prompt");
    expectInvalid(await generate({ prompt: "\n\t" }), "/prompt");
    expectQueued(await generate({ prompt: " a " }), "text_to_image");
    expectQueued(await generate({ prompt: "x" }), "text_to_image");
  });

  it("count is an integer from 1 to 4", async () => {
    expectInvalid(await generate({ prompt: PROMPT, count: 0 }), "/count");
    expectInvalid(await generate({ prompt: PROMPT, count: 5 }), "/count");
    expectInvalid(await generate({ prompt: PROMPT, count: 1.5 }), "/count");
    expectInvalid(await generate({ prompt: PROMPT, count: "2" }), "/count");
    expectQueued(await generate({ prompt: PROMPT, count: 1 }), "text_to_image");
    expectQueued(await generate({ prompt: PROMPT, count: 4 }), "text_to_image");
  });

  it("canvas is a preset with a tier and an aspect; aspect source needs an input image", async () => {
    expectInvalid(await generate({ prompt: PROMPT, canvas: { type: "custom" } }), "/canvas/type");
    expectInvalid(await generate({ prompt: PROMPT, canvas: { tier: "big" } }), "/canvas/tier");
    expectInvalid(await generate({ prompt: PROMPT, canvas: { aspect: "wide" } }), "/canvas/aspect");
    expectInvalid(await generate({ prompt: PROMPT, canvas: { aspect: "source" } }), "/canvas/aspect");
    expectInvalid(await generate({ prompt: PROMPT, canvas: { width: 100 } }), "/canvas/width");
    const explicit = await generate({ prompt: PROMPT, canvas: { type: "preset", tier: "2K", aspect: "9:16" } });
    expectQueued(explicit, "text_to_image");
    expect(explicit.body.input.canvas).toEqual({ type: "preset", tier: "2K", aspect: "9:16" });
  });

  it("seed is a non-negative 32-bit integer; negative_prompt a non-empty string", async () => {
    expectInvalid(await generate({ prompt: PROMPT, seed: -1 }), "/seed");
    expectInvalid(await generate({ prompt: PROMPT, seed: 2_147_483_648 }), "/seed");
    expectInvalid(await generate({ prompt: PROMPT, seed: 1.5 }), "/seed");
    expectQueued(await generate({ prompt: PROMPT, seed: 2_147_483_647 }), "text_to_image");
    expectQueued(await generate({ prompt: PROMPT, seed: 0 }), "text_to_image");
    expectInvalid(await generate({ prompt: PROMPT, negative_prompt: "" }), "/negative_prompt");
    expectInvalid(await generate({ prompt: PROMPT, enhance_prompt: "yes" }), "/enhance_prompt");
    expectInvalid(await generate({ prompt: PROMPT, output_relationship: "mosaic" }), "/output_relationship");
    expectInvalid(await generate({ prompt: PROMPT, reasoning: 1 }), "/reasoning");
  });

  it("null enhance_prompt and reasoning keep the model default and constrain nothing", async () => {
    const response = await generate({ prompt: PROMPT, model: "vendorE-image-2", enhance_prompt: null, reasoning: null });
    expectQueued(response, "text_to_image", "vendorE-image-2");
  });

  describe("palette", () => {
    const color = (weight: number, c = "#112233") => ({ color: c, weight });

    it("has 3 to 10 entries", async () => {
      expectInvalid(await generate({ prompt: PROMPT, palette: [color(0.5), color(0.5)] }), "/palette");
      expectInvalid(await generate({ prompt: PROMPT, palette: Array.from({ length: 11 }, () => color(0.0909)) }), "/palette");
      expectQueued(await generate({ prompt: PROMPT, palette: [color(0.2), color(0.3), color(0.5)] }), "text_to_image");
      const ten = [...Array.from({ length: 9 }, () => color(0.1)), color(0.1)];
      expectQueued(await generate({ prompt: PROMPT, palette: ten }), "text_to_image");
    });

    it("weights sum to exactly 1.0000, compared without float error", async () => {
      expectInvalid(await generate({ prompt: PROMPT, palette: [color(0.3333), color(0.3333), color(0.3333)] }), "/palette");
      expectInvalid(await generate({ prompt: PROMPT, palette: [color(0.5), color(0.3), color(0.2001)] }), "/palette");
      // 0.1 + 0.2 + 0.7 is 0.9999999999999999 in floating point.
      expectQueued(await generate({ prompt: PROMPT, palette: [color(0.1), color(0.2), color(0.7)] }), "text_to_image");
      expectQueued(await generate({ prompt: PROMPT, palette: [color(0.3333), color(0.3333), color(0.3334)] }), "text_to_image");
    });

    it("items are a hex color and a weight in (0, 1] with at most four decimals", async () => {
      expectInvalid(await generate({ prompt: PROMPT, palette: [color(0.5, "red"), color(0.25), color(0.25)] }), "/palette/0/color");
      expectInvalid(await generate({ prompt: PROMPT, palette: [color(0.5), color(0), color(0.5)] }), "/palette/1/weight");
      expectInvalid(await generate({ prompt: PROMPT, palette: [color(0.5), color(0.25), color(0.33333)] }), "/palette/2/weight");
      expectInvalid(await generate({ prompt: PROMPT, palette: [color(0.5), color(0.25), { color: "#000000" }] }), "/palette/2/weight");
    });
  });
});

describe("model-specific controls through selection", () => {
  it("count: exact counts only", async () => {
    expectUnsupported(await generate({ prompt: PROMPT, model: "vendorC2.7-image", count: 3 }), {
      model: "vendorC2.7-image", code: "unsupported_count", param: "/count", received: 3, supported: [1, 2, 4],
    });
    expectQueued(await generate({ prompt: PROMPT, model: "vendorC2.7-image", count: 4 }), "text_to_image", "vendorC2.7-image");
    expectQueued(await generate({ prompt: PROMPT, count: 3 }), "text_to_image", "vendorE-image-2.5-flare");
  });

  it("canvas tier and aspect", async () => {
    expectUnsupported(await generate({ prompt: PROMPT, model: "vendorE-image-2.5-sunburst", canvas: { tier: "4K" } }), {
      model: "vendorE-image-2.5-sunburst", code: "unsupported_canvas_tier", param: "/canvas/tier", received: "4K", supported: ["1K", "2K"],
    });
    expectUnsupported(await generate({ prompt: PROMPT, model: "vendorE-image-2", canvas: { aspect: "4:3" } }), {
      model: "vendorE-image-2", code: "unsupported_aspect_ratio", param: "/canvas/aspect", received: "4:3",
      supported: ["1:1", "16:9", "9:16", "source"],
    });
    expectQueued(await generate({ prompt: PROMPT, seed: 1, canvas: { tier: "4K" } }), "text_to_image", "vendorC2.7-image-pro");
    expectNoEligibleModel(await generate({ prompt: PROMPT, canvas: { tier: "8K" } }), ALL_MODELS);
    expectNoEligibleModel(await generate({ prompt: PROMPT, canvas: { aspect: "5:4" } }), ALL_MODELS);
  });

  it("seed", async () => {
    expectUnsupported(await generate({ prompt: PROMPT, model: "vendorE-image-2.5-flare", seed: 7 }), {
      model: "vendorE-image-2.5-flare", code: "unsupported_seed", param: "/seed", received: 7, supported: false,
    });
    expectQueued(await generate({ prompt: PROMPT, seed: 7 }), "text_to_image", "vendorE-image-2.5-sunburst");
  });

  it("negative_prompt", async () => {
    expectUnsupported(await generate({ prompt: PROMPT, model: "vendorF-image-3.0", negative_prompt: "blur" }), {
      model: "vendorF-image-3.0", code: "unsupported_negative_prompt", param: "/negative_prompt", received: "blur", supported: false,
    });
    expectQueued(await generate({ prompt: PROMPT, negative_prompt: "blur" }), "text_to_image", "vendorC2.7-image-pro");
  });

  it("explicit enhance_prompt, true or false", async () => {
    for (const value of [true, false]) {
      expectUnsupported(await generate({ prompt: PROMPT, model: "vendorE-image-2", enhance_prompt: value }), {
        model: "vendorE-image-2", code: "unsupported_enhance_prompt", param: "/enhance_prompt", received: value, supported: [],
      });
    }
    expectQueued(await generate({ prompt: PROMPT, seed: 3, enhance_prompt: false }), "text_to_image", "vendorE-image-2.5-sunburst");
    expectQueued(await generate({ prompt: PROMPT, seed: 3, enhance_prompt: true }), "text_to_image", "vendorE-image-2.5-sunburst");
  });

  it("explicit reasoning", async () => {
    expectUnsupported(await generate({ prompt: PROMPT, model: "vendorE-image-2.5-sunburst", reasoning: false }), {
      model: "vendorE-image-2.5-sunburst", code: "unsupported_reasoning", param: "/reasoning", received: false, supported: [true],
    });
    expectUnsupported(await generate({ prompt: PROMPT, model: "vendorF-image-3.0", reasoning: true }), {
      model: "vendorF-image-3.0", code: "unsupported_reasoning", param: "/reasoning", received: true, supported: [],
    });
    expectQueued(await generate({ prompt: PROMPT, model: "vendorE-image-2.5-sunburst", reasoning: true }), "text_to_image");
    expectQueued(await generate({ prompt: PROMPT, seed: 1, reasoning: false }), "text_to_image", "vendorC2.7-image-pro");
  });

  it("output_relationship sequence", async () => {
    expectUnsupported(await generate({ prompt: PROMPT, model: "vendorE-image-2", count: 2, output_relationship: "sequence" }), {
      model: "vendorE-image-2", code: "unsupported_output_relationship", param: "/output_relationship", received: "sequence",
      supported: ["independent"],
    });
    const picked = await generate({ prompt: PROMPT, count: 4, seed: 5, output_relationship: "sequence" });
    expectQueued(picked, "text_to_image", "vendorE-image-2.5-sunburst");
    expectQueued(await generate({ prompt: PROMPT, model: "vendorE-image-2", output_relationship: "independent" }), "text_to_image");
  });

  it("palette", async () => {
    const palette = [{ color: "#FF0000", weight: 0.5 }, { color: "#00FF00", weight: 0.25 }, { color: "#0000FF", weight: 0.25 }];
    expectUnsupported(await generate({ prompt: PROMPT, model: "vendorC2.7-image-pro", palette }), {
      model: "vendorC2.7-image-pro", code: "unsupported_palette", param: "/palette", received: palette, supported: false,
    });
    expectQueued(await generate({ prompt: PROMPT, palette, seed: 9 }), "text_to_image", "vendorF-image-3.0-pro");
  });

  it("an impossible combination under auto is no_eligible_model listing every candidate", async () => {
    const palette = [{ color: "#FF0000", weight: 0.5 }, { color: "#00FF00", weight: 0.25 }, { color: "#0000FF", weight: 0.25 }];
    const response = await generate({ prompt: PROMPT, negative_prompt: "blur", palette });
    expectNoEligibleModel(response, ALL_MODELS);
    const codes = new Set(response.body.error.details.candidate_failures.map((f: { code: string }) => f.code));
    expect(codes).toEqual(new Set(["unsupported_negative_prompt", "unsupported_palette"]));
    expectNoEligibleModel(await generate({ prompt: PROMPT, negative_prompt: "blur", count: 3 }), ALL_MODELS);
  });

  it("a rejected request is not admitted and charges nothing", async () => {
    const before = (await h.request("GET", "/v1/credits")).body.held_credits;
    expect((await generate({ prompt: PROMPT, model: "vendorE-image-2.5-flare", seed: 1 })).status).toBe(422);
    expect((await h.request("GET", "/v1/credits")).body.held_credits).toBe(before);
  });
});
