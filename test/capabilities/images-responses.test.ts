import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_RETIREMENTS } from "../../core/retirements/retirement.js";
import { understandingRequirements } from "../../core/capabilities/understanding-requirements.js";
import { UNDERSTANDING_MODELS, type UnderstandingModel } from "../../core/catalog/understanding-models.js";
import { ServiceError } from "../../core/errors/index.js";
import { selectModel } from "../../core/selection/select.js";
import { startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { IMAGE, expectInvalid, expectNoEligibleModel, expectQueued, expectUnknownModel, expectUnsupported, images, poster } from "./images-support.js";

// POST /v1/images/responses: image understanding, postpaid per admitted image.
let h: Harness;
let ask: (body: unknown) => Promise<ApiResponse>;
beforeAll(async () => {
  h = await startHarness();
  ask = poster(h, "/v1/images/responses");
});
afterAll(async () => h?.close());

const BODY = { model: "auto", prompt: "What is on the sign?", images: [IMAGE] };

describe("POST /v1/images/responses admission", () => {
  it("admits the minimal body; nothing is charged before success, the estimate is held", async () => {
    const response = await ask(BODY);
    expectQueued(response, "image_to_text", "vendorA-M3");
    expect(response.body.input).toMatchObject({ detail: "default" });
    expect(response.body.billing.charged_credits).toBe("0.000000");
    const credits = (await h.request("GET", "/v1/credits")).body;
    expect(credits.held_credits).toBe("0.002000");
  });

  it("holds one image_input price per image, whatever the detail", async () => {
    const before = BigInt((await h.request("GET", "/v1/credits")).body.held_credits.replace(".", ""));
    const response = await ask({ ...BODY, model: "vendorF-vision-2.0", images: images(3), detail: "low" });
    expectQueued(response, "image_to_text", "vendorF-vision-2.0");
    expect(response.body.billing.charged_credits).toBe("0.000000");
    const after = BigInt((await h.request("GET", "/v1/credits")).body.held_credits.replace(".", ""));
    expect(after - before).toBe(3n * 800n);
  });

  it("model is required; an unknown or generation model is 400 unsupported_model", async () => {
    expectInvalid(await ask({ prompt: BODY.prompt, images: [IMAGE] }), "/model");
    expectInvalid(await ask({ ...BODY, model: "" }), "/model");
    expectUnknownModel(await ask({ ...BODY, model: "vendorE-image-2.5-flare" }));
    expectUnknownModel(await ask({ ...BODY, model: "vendorB-2" }));
    expectQueued(await ask({ ...BODY, model: "vendorA-M3" }), "image_to_text", "vendorA-M3");
  });

  it("prompt is required, 1 to 4000 characters (code points)", async () => {
    expectInvalid(await ask({ model: "auto", images: [IMAGE] }), "/prompt");
    expectInvalid(await ask({ ...BODY, prompt: "" }), "/prompt");
    expectInvalid(await ask({ ...BODY, prompt: "a".repeat(4001) }), "/prompt");
    expectQueued(await ask({ ...BODY, prompt: "a".repeat(4000) }), "image_to_text");
    expectQueued(await ask({ ...BODY, prompt: "😀".repeat(4000) }), "image_to_text");
  });

  it("images are 1 to 8", async () => {
    expectInvalid(await ask({ model: "auto", prompt: BODY.prompt }), "/images");
    expectInvalid(await ask({ ...BODY, images: [] }), "/images");
    expectInvalid(await ask({ ...BODY, images: images(9) }), "/images");
    expectInvalid(await ask({ ...BODY, images: [{ type: "file", path: "/x" }] }), "/images/0");
    expectQueued(await ask({ ...BODY, images: images(8) }), "image_to_text", "vendorA-M3");
  });

  it("detail is default, low or high; response_format and temperature are typed", async () => {
    expectInvalid(await ask({ ...BODY, detail: "ultra" }), "/detail");
    expectInvalid(await ask({ ...BODY, response_format: 1 }), "/response_format");
    expectInvalid(await ask({ ...BODY, temperature: "hot" }), "/temperature");
    expectInvalid(await ask({ ...BODY, count: 1 }), "/count");
    for (const detail of ["default", "low", "high"]) expectQueued(await ask({ ...BODY, detail }), "image_to_text");
    expectQueued(await ask({ ...BODY, response_format: "json", temperature: 2 }), "image_to_text", "vendorA-M3");
  });
});

describe("model limits through selection", () => {
  const vision = { ...BODY, model: "vendorF-vision-2.0" };

  it("image count", async () => {
    expectUnsupported(await ask({ ...vision, images: images(5) }), {
      model: "vendorF-vision-2.0", code: "unsupported_image_count", param: "/images", received: 5, supported: 4,
    });
    expectQueued(await ask({ ...vision, images: images(4) }), "image_to_text", "vendorF-vision-2.0");
  });

  it("detail, response_format and temperature", async () => {
    expectUnsupported(await ask({ ...vision, detail: "high" }), {
      model: "vendorF-vision-2.0", code: "unsupported_detail", param: "/detail", received: "high", supported: ["default", "low"],
    });
    expectUnsupported(await ask({ ...vision, response_format: "json" }), {
      model: "vendorF-vision-2.0", code: "unsupported_response_format", param: "/response_format", received: "json", supported: ["text"],
    });
    expectUnsupported(await ask({ ...vision, temperature: 2 }), {
      model: "vendorF-vision-2.0", code: "unsupported_temperature", param: "/temperature", received: 2, supported: { min: 0, max: 1 },
    });
    expectQueued(await ask({ ...vision, temperature: 1, response_format: "text", detail: "low" }), "image_to_text", "vendorF-vision-2.0");
    expectQueued(await ask({ ...BODY, temperature: 1.5, detail: "high" }), "image_to_text", "vendorA-M3");
  });

  it("a request no model honours under auto is no_eligible_model", async () => {
    expectNoEligibleModel(await ask({ ...BODY, temperature: 3 }), 2);
    expectNoEligibleModel(await ask({ ...BODY, response_format: "xml" }), 2);
  });
});

describe("modality and context window checks", () => {
  // No image_to_text model today lacks images or has a window smaller than a 4000-character prompt, so these
  // rules are shown on a narrower model of the same shape.
  const base = UNDERSTANDING_MODELS[1] as UnderstandingModel;
  const narrow: UnderstandingModel = {
    ...base,
    id: "narrow",
    constraints: { ...base.constraints, input_modalities: ["text"], context_window_tokens: 100 },
  };
  const select = (prompt: string) =>
    selectModel({
      capability: "image_to_text",
      requested: "narrow",
      candidates: [narrow],
      isLive: () => true,
      lifecycle: { schedule: NO_RETIREMENTS, now: new Date() },
      requirements: understandingRequirements({ modality: "image", mediaParam: "/images", prompt, imageCount: 1, detail: "default" }),
      known: { body: {}, media: [] },
    });

  it("reports a model without image input and a prompt past its context window", () => {
    let thrown: unknown;
    try {
      select("a".repeat(401));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ServiceError);
    expect((thrown as ServiceError).details?.candidate_failures).toEqual([
      expect.objectContaining({ code: "unsupported_input_modality", param: "/images", received: "image", supported: ["text"] }),
      expect.objectContaining({ code: "context_length_exceeded", param: "/prompt", received: 101, supported: 100 }),
    ]);
  });

  it("counts four characters a token, rounding up", () => {
    const wide = { ...narrow, constraints: { ...narrow.constraints, input_modalities: ["text", "image"] as const } };
    const requirements = understandingRequirements({ modality: "image", mediaParam: "/images", prompt: "a".repeat(400), imageCount: 1, detail: "default" });
    expect(requirements.map((r) => r.check(wide)).filter((f) => f !== null)).toEqual([]);
  });
});
