import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMAGE_MODELS } from "../../core/catalog/image-models.js";
import { startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import {
  IMAGE,
  expectInvalid,
  expectNoEligibleModel,
  expectQueued,
  expectUnknownModel,
  expectUnsupported,
  images,
  poster,
} from "./images-support.js";

// POST /v1/images/image-to-image and /v1/images/edits: the endpoints that take input images.
let h: Harness;
let transform: (body: unknown) => Promise<ApiResponse>;
let edit: (body: unknown) => Promise<ApiResponse>;
beforeAll(async () => {
  h = await startHarness({ credits: "1000" });
  transform = poster(h, "/v1/images/image-to-image");
  edit = poster(h, "/v1/images/edits");
});
afterAll(async () => h?.close());

const PROMPT = "Make it winter";
const region = (over: Record<string, number> = {}) => ({ image_index: 0, x: 0.1, y: 0.1, width: 0.5, height: 0.5, ...over });

describe("POST /v1/images/image-to-image", () => {
  it("admits a prompt and one image, canvas 2K 16:9 by default, priced per output image", async () => {
    const response = await transform({ prompt: PROMPT, images: [IMAGE] });
    expectQueued(response, "image_to_image", "vendorE-image-2.5-flare");
    expect(response.body.input).toMatchObject({
      count: 1,
      canvas: { type: "preset", tier: "2K", aspect: "16:9" },
      output_relationship: "independent",
    });
    expect(response.body.billing.charged_credits).toBe("0.040000");
    const two = await transform({ prompt: PROMPT, images: [IMAGE], model: "vendorF-image-3.0", count: 2 });
    expect(two.body.billing.charged_credits).toBe("0.060000");
  });

  it("takes 1 to 4 images as URL, artifact or data URI", async () => {
    expectInvalid(await transform({ prompt: PROMPT }), "/images");
    expectInvalid(await transform({ prompt: PROMPT, images: [] }), "/images");
    expectInvalid(await transform({ prompt: PROMPT, images: images(5) }), "/images");
    expectInvalid(await transform({ prompt: PROMPT, images: [{ type: "url", url: "http://example.com/a.png" }] }), "/images/0/url");
    expectQueued(await transform({ prompt: PROMPT, images: images(4) }), "image_to_image");
    const upload = await h.request("POST", "/v1/assets", { body: { content_base64: "iVBORw0KGgoAAAANSUhEUg==", filename: "a.png" } });
    expect(upload.status).toBe(201);
    const mixed = [IMAGE, { type: "artifact", artifact_id: upload.body.artifact_id }, "data:image/png;base64,iVBORw0KGgo="];
    expectQueued(await transform({ prompt: PROMPT, images: mixed }), "image_to_image");
  });

  it("accepts canvas aspect source; shares the image option fields", async () => {
    expectQueued(await transform({ prompt: PROMPT, images: [IMAGE], canvas: { aspect: "source" } }), "image_to_image");
    expectInvalid(await transform({ prompt: "  ", images: [IMAGE] }), "/prompt");
    expectInvalid(await transform({ prompt: PROMPT, images: [IMAGE], count: 5 }), "/count");
    expectInvalid(await transform({ prompt: PROMPT, images: [IMAGE], reasoning: true }), "/reasoning");
    expectInvalid(await transform({ prompt: PROMPT, images: [IMAGE], edit_regions: [region()] }), "/edit_regions");
  });

  it("max input images per model", async () => {
    expectUnsupported(await transform({ prompt: PROMPT, images: images(2), model: "image-01-live" }), {
      model: "image-01-live", code: "unsupported_image_count", param: "/images", received: 2, supported: 1,
    });
    expectQueued(await transform({ prompt: PROMPT, images: images(1), model: "image-01-live" }), "image_to_image", "image-01-live");
    expectQueued(await transform({ prompt: PROMPT, images: images(4), negative_prompt: "x" }), "image_to_image", "vendorC2.7-image-pro");
    expectNoEligibleModel(await transform({ prompt: PROMPT, images: images(4), negative_prompt: "x", count: 3 }), IMAGE_MODELS.length);
  });

  it("output_relationship sequence and the other controls", async () => {
    expectUnsupported(await transform({ prompt: PROMPT, images: [IMAGE], model: "vendorC2.7-image", output_relationship: "sequence" }), {
      model: "vendorC2.7-image", code: "unsupported_output_relationship", param: "/output_relationship", received: "sequence",
      supported: ["independent"],
    });
    const sequence = await transform({ prompt: PROMPT, images: [IMAGE], output_relationship: "sequence", negative_prompt: "x" });
    expectQueued(sequence, "image_to_image", "vendorC2.7-image-pro");
    expectUnsupported(await transform({ prompt: PROMPT, images: [IMAGE], model: "vendorF-image-2.0", count: 2 }), {
      model: "vendorF-image-2.0", code: "unsupported_count", param: "/count", received: 2, supported: [1],
    });
  });

  it("refuses an unknown model with 400", async () => {
    expectUnknownModel(await transform({ prompt: PROMPT, images: [IMAGE], model: "nope" }));
  });
});

describe("POST /v1/images/edits", () => {
  it("admits a prompt and a base image, canvas 2K aspect source by default", async () => {
    const response = await edit({ prompt: PROMPT, images: [IMAGE] });
    expectQueued(response, "image_edit", "vendorE-image-2.5-flare");
    expect(response.body.input.canvas).toEqual({ type: "preset", tier: "2K", aspect: "source" });
    expect(response.body.billing.charged_credits).toBe("0.040000");
  });

  it("needs at least the base image; more than four go to a model that takes them", async () => {
    expectInvalid(await edit({ prompt: PROMPT }), "/images");
    expectInvalid(await edit({ prompt: PROMPT, images: [] }), "/images");
    expectQueued(await edit({ prompt: PROMPT, images: images(5) }), "image_edit", "vendorE-image-2.5-sunburst");
    expectQueued(await edit({ prompt: PROMPT, images: images(10) }), "image_edit", "vendorE-image-2.5-sunburst");
    expectUnsupported(await edit({ prompt: PROMPT, images: images(5), model: "vendorE-image-2.5-flare" }), {
      model: "vendorE-image-2.5-flare", code: "unsupported_image_count", param: "/images", received: 5, supported: 4,
    });
    expectNoEligibleModel(await edit({ prompt: PROMPT, images: images(11) }), IMAGE_MODELS.length);
  });

  it("has no output_relationship or reasoning", async () => {
    expectInvalid(await edit({ prompt: PROMPT, images: [IMAGE], output_relationship: "independent" }), "/output_relationship");
    expectInvalid(await edit({ prompt: PROMPT, images: [IMAGE], reasoning: false }), "/reasoning");
  });

  describe("edit regions", () => {
    const withRegions = (regions: unknown[], extra: Record<string, unknown> = {}) =>
      edit({ prompt: PROMPT, images: images(2), edit_regions: regions, ...extra });

    it("coordinates are normalized to [0, 1], width and height positive", async () => {
      expectInvalid(await withRegions([region({ x: -0.1 })]), "/edit_regions/0/x");
      expectInvalid(await withRegions([region({ y: 1.1 })]), "/edit_regions/0/y");
      expectInvalid(await withRegions([region({ width: 0 })]), "/edit_regions/0/width");
      expectInvalid(await withRegions([region({ height: 1.5 })]), "/edit_regions/0/height");
      expectInvalid(await withRegions([region({ image_index: -1 })]), "/edit_regions/0/image_index");
      expectInvalid(await withRegions([region({ image_index: 0.5 })]), "/edit_regions/0/image_index");
      expectInvalid(await withRegions([{ x: 0, y: 0, width: 1, height: 1 }]), "/edit_regions/0/image_index");
      expectInvalid(await withRegions([]), "/edit_regions");
      expectQueued(await withRegions([region({ x: 0, y: 0, width: 1, height: 1 })]), "image_edit");
    });

    it("x + width and y + height stay within the image", async () => {
      expectInvalid(await withRegions([region({ x: 0.6, width: 0.5 })]), "/edit_regions/0/width");
      expectInvalid(await withRegions([region(), region({ y: 0.75, height: 0.3 })]), "/edit_regions/1/height");
      // 0.7 + 0.3 and 0.1 + 0.9 are at the edge, whatever the float sum says.
      expectQueued(await withRegions([region({ x: 0.7, width: 0.3, y: 0.1, height: 0.9 })]), "image_edit");
    });

    it("image_index targets one of the images", async () => {
      expectInvalid(await withRegions([region({ image_index: 2 })]), "/edit_regions/0/image_index");
      expectInvalid(await withRegions([region(), region({ image_index: 5 })]), "/edit_regions/1/image_index");
      expectQueued(await withRegions([region({ image_index: 1 })]), "image_edit");
    });

    it("need a model that edits regions, and as many as given", async () => {
      expectUnsupported(await withRegions([region()], { model: "vendorE-image-2.5-flare" }), {
        model: "vendorE-image-2.5-flare", code: "unsupported_edit_regions", param: "/edit_regions", received: 1, supported: 0,
      });
      expectUnsupported(await withRegions([region(), region()], { model: "vendorC2.7-image" }), {
        model: "vendorC2.7-image", code: "unsupported_edit_regions", param: "/edit_regions", received: 2, supported: 1,
      });
      expectQueued(await withRegions([region()]), "image_edit", "vendorE-image-2.5-sunburst");
      expectQueued(await withRegions(Array.from({ length: 5 }, () => region())), "image_edit", "vendorC2.7-image-pro");
      expectNoEligibleModel(await withRegions(Array.from({ length: 9 }, () => region())), IMAGE_MODELS.length);
    });
  });

  it("shares the model-specific image controls", async () => {
    expectUnsupported(await edit({ prompt: PROMPT, images: [IMAGE], model: "vendorF-image-2.0-pro", seed: 4 }), {
      model: "vendorF-image-2.0-pro", code: "unsupported_seed", param: "/seed", received: 4, supported: false,
    });
    expectUnsupported(await edit({ prompt: PROMPT, images: [IMAGE], model: "image-01-live", canvas: { tier: "1K" } }), {
      model: "image-01-live", code: "unsupported_canvas_tier", param: "/canvas/tier", received: "1K", supported: ["2K"],
    });
    // vendorC2.7-image-pro renders 4K from text alone: an edit at 4K goes to the next model that takes it.
    const charged = await edit({ prompt: PROMPT, images: [IMAGE], count: 2, canvas: { tier: "4K", aspect: "21:9" }, seed: 1 });
    expectQueued(charged, "image_edit", "vendorF-image-3.0-pro");
    expect(charged.body.model_selection_reason).toContain("vendorC2.7-image-pro");
    expect(charged.body.billing.charged_credits).toBe("0.150000");
    expectUnsupported(await edit({ prompt: PROMPT, images: [IMAGE], model: "vendorC2.7-image-pro", canvas: { tier: "4K" } }), {
      model: "vendorC2.7-image-pro", code: "unsupported_canvas_tier", param: "/canvas/tier", received: "4K", supported: ["2K"],
    });
  });

  it("refuses an unknown model with 400", async () => {
    expectUnknownModel(await edit({ prompt: PROMPT, images: [IMAGE], model: "vendorF-vision-2.0" }));
  });
});
