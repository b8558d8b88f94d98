import { describe, expect, it } from "vitest";
import { DEFAULT_VENDOR_IDS, mergeVendorIds, vendorIdProblems } from "../../core/catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../core/config.js";
import { probeMedia } from "../../core/media/probe.js";
import { ProviderFailure, type ProviderRequest } from "../../core/providers/types.js";
import { vendorEAdapter } from "../../core/providers/vendorE/adapter.js";
import { emulatorBehindRecorder, emulatorCall, loadReference, schemaOf as schema, startRecorder } from "./contract-support.js";
import { COLOURS, halvesPng } from "./video-media.js";

// vendorE against the copy of Imagen on Vertex AI's reference kept in the repo
// (docs/providers/reference/vendorE-imagen-predict.json): the adapter's requests and the emulator's answers must fit
// its schemas, and its own examples must go through both. A disagreement between the emulator and the reference
// fails here. The catalog's controls Imagen lacks (palette, related sets, reasoning) and box edit regions are the
// documented differences: requests without them fit the reference exactly.

interface Reference {
  models: string[];
  request: object;
  response: object;
  error: object;
  examples: Record<"generateRequest" | "editRequest" | "response" | "filteredResponse" | "refusal", Record<string, unknown>>;
}

const reference = loadReference<Reference>("vendorE-imagen-predict.json");
const requestSchema = schema(reference.request);
const responseSchema = schema(reference.response);
const errorSchema = schema(reference.error);

const KEY = "contract-key";
const ULTRA = "imagen-4.0-ultra-generate-001";
const CAPABILITY = "imagen-3.0-capability-001";

let picture: Buffer;

// A real HTTP hop in front of the vendor that also serves the test's pictures at /pictures/… as the service's signed
// URLs would.
const { emulator, proxy } = emulatorBehindRecorder(["x-goog-api-key"], async () => {
  picture = await halvesPng(40, 80, COLOURS.red!, COLOURS.blue!);
  return { picture };
});

const endpointAt = (baseUrl: string): ProviderEndpoint => ({ baseUrl, apiKey: KEY, ids: DEFAULT_VENDOR_IDS.vendorE });

async function emulatorPredict(model: string, body: unknown, key: string | null = KEY) {
  const headers: Record<string, string> = key === null ? {} : { "x-goog-api-key": key };
  const { status, json } = await emulatorCall<{ predictions?: { bytesBase64Encoded?: string }[] }>(emulator.url, "POST", `/vendorE/publishers/google/models/${model}:predict`, body, headers);
  return { status, body: json };
}

const textRequest = (model: string, input: Record<string, unknown> = {}): ProviderRequest => ({
  taskId: "task_contract",
  capability: "text_to_image",
  model,
  input: { prompt: "a lighthouse", model, count: 1, canvas: { tier: "1K", aspect: "1:1" }, output_relationship: "independent", ...input },
});

const artifact = (name: string) => ({ type: "artifact", url: `${proxy.url}/pictures/${name}.png`, width: 40, height: 80, format: "png" });

describe("the reference copy", () => {
  it("accepts its own examples", () => {
    expect(requestSchema.safeParse(reference.examples.generateRequest).success).toBe(true);
    expect(requestSchema.safeParse(reference.examples.editRequest).success).toBe(true);
    expect(responseSchema.safeParse(reference.examples.response).success).toBe(true);
    expect(responseSchema.safeParse(reference.examples.filteredResponse).success).toBe(true);
    expect(errorSchema.safeParse(reference.examples.refusal).success).toBe(true);
  });

  it("refuses what the old adapter sent and the old emulator answered", () => {
    const edit = reference.examples.editRequest as { parameters: object };
    expect(requestSchema.safeParse({ ...edit, parameters: { ...edit.parameters, editMode: "EDIT_MODE_INPAINT" } }).success).toBe(false);
    const byUri = { instances: [{ prompt: "x", referenceImages: [{ referenceId: 1, referenceType: "REFERENCE_TYPE_RAW", referenceImage: { imageUri: "https://a/b.png" } }] }] };
    expect(requestSchema.safeParse(byUri).success).toBe(false);
    expect(responseSchema.safeParse({ predictions: [{ bytesBase64Encoded: "iVBORw0K", mimeType: "image/png", finishReason: "SUCCESS" }], modelVersion: "x" }).success).toBe(false);
  });
});

describe("the emulator answers as the reference does", () => {
  it("renders the generation example: every image inline, at the size asked", async () => {
    const answer = await emulatorPredict(ULTRA, reference.examples.generateRequest);
    expect(answer.status).toBe(200);
    expect(responseSchema.safeParse(answer.body).success, JSON.stringify(answer.body).slice(0, 300)).toBe(true);
    expect(answer.body.predictions).toHaveLength(2);
    const probe = await probeMedia(Buffer.from(answer.body.predictions![0]!.bytesBase64Encoded!, "base64"));
    expect(probe).toMatchObject({ width: 2048, height: 1152 });
  });

  it("edits the edit example's inline base image", async () => {
    const answer = await emulatorPredict(CAPABILITY, reference.examples.editRequest);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(responseSchema.safeParse(answer.body).success).toBe(true);
    expect(answer.body.predictions).toHaveLength(1);
  });

  it.each([
    ["our own model id", "vendorE-image-2.5-flare", reference.examples.generateRequest, KEY, 404],
    ["a call without a key", ULTRA, reference.examples.generateRequest, null, 403],
    ["a seed with the watermark on", ULTRA, { ...reference.examples.generateRequest, parameters: { seed: 7 } }, KEY, 400],
    [
      "a reference image by URL",
      CAPABILITY,
      { instances: [{ prompt: "x", referenceImages: [{ referenceId: 1, referenceType: "REFERENCE_TYPE_RAW", referenceImage: { imageUri: "https://a/b.png" } }] }], parameters: {} },
      KEY,
      400,
    ],
  ])("refuses %s in the reference's error shape", async (_case, model, body, key, status) => {
    const answer = await emulatorPredict(model, body, key);
    expect(answer.status).toBe(status);
    expect(errorSchema.safeParse(answer.body).success, JSON.stringify(answer.body)).toBe(true);
  });
});

describe("the adapter's requests fit the reference", () => {
  const submit = (request: ProviderRequest) => vendorEAdapter(endpointAt(`${proxy.url}/vendorE`)).submit(request, AbortSignal.timeout(60_000));

  it.each(Object.entries(DEFAULT_VENDOR_IDS.vendorE?.models ?? {}))("sends %s as %s, a model of the reference", async (model, imagen) => {
    expect(reference.models).toContain(imagen);
    const outcome = await submit(textRequest(model));
    const sent = proxy.bodies[0];
    expect(requestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
    expect(outcome).toMatchObject({ status: "done", outputs: [{ kind: "image", format: "png" }] });
  });

  it("asks for the reasons of withheld images, keeps the prompt unless asked, and turns the watermark off for a seed", async () => {
    await submit(textRequest("vendorE-image-2", { seed: 42, count: 2, canvas: { tier: "2K", aspect: "16:9" } }));
    const sent = proxy.bodies[0] as { parameters: Record<string, unknown> };
    expect(requestSchema.safeParse(sent).success).toBe(true);
    expect(sent.parameters).toEqual({
      sampleCount: 2,
      aspectRatio: "16:9",
      sampleImageSize: "2K",
      outputOptions: { mimeType: "image/png" },
      enhancePrompt: false,
      includeRaiReason: true,
      seed: 42,
      addWatermark: false,
    });
  });

  it("sends input images' bytes inline as RAW references, and an edit's mode", async () => {
    const request: ProviderRequest = {
      taskId: "task_contract",
      capability: "image_edit",
      model: "vendorE-image-2.5-sunburst",
      input: { prompt: "paint it blue", model: "vendorE-image-2.5-sunburst", count: 1, canvas: { tier: "1K", aspect: "1:1" }, images: [artifact("base"), artifact("other")] },
    };
    const outcome = await submit(request);
    const sent = proxy.bodies[0] as { instances: { referenceImages: { referenceImage: { bytesBase64Encoded: string } }[] }[]; parameters: { editMode: string } };
    expect(requestSchema.safeParse(sent).success, JSON.stringify(sent).slice(0, 400)).toBe(true);
    expect(Buffer.from(sent.instances[0]!.referenceImages[0]!.referenceImage.bytesBase64Encoded, "base64").equals(picture)).toBe(true);
    expect(sent.parameters.editMode).toBe("EDIT_MODE_DEFAULT");
    expect(outcome).toMatchObject({ status: "done" });
  });

  it("sends a canvas that follows a 1:2 input image at the nearest of Imagen's ratios (9:16), which the emulator renders; the input's own ratio it refuses", async () => {
    const request: ProviderRequest = {
      taskId: "task_contract",
      capability: "image_to_image",
      model: "vendorE-image-2.5-sunburst",
      input: { prompt: "in blue", model: "vendorE-image-2.5-sunburst", count: 1, canvas: { tier: "1K", aspect: "source" }, images: [artifact("base")], output_relationship: "independent" },
    };
    const outcome = await submit(request);
    const sent = proxy.bodies[0] as { parameters: Record<string, unknown> };
    expect(requestSchema.safeParse(sent).success, JSON.stringify(sent).slice(0, 400)).toBe(true);
    expect(sent.parameters.aspectRatio).toBe("9:16");
    expect(outcome).toMatchObject({ status: "done", outputs: [{ kind: "image", format: "png" }] });
    if (outcome.status !== "done") return;
    expect(await probeMedia(Buffer.from(outcome.outputs[0]!.url!.split(",")[1]!, "base64"))).toMatchObject({ width: 576, height: 1024 });

    const ownRatio = await emulatorPredict(CAPABILITY, { ...sent, parameters: { ...sent.parameters, aspectRatio: "1:2" } });
    expect(ownRatio.status).toBe(400);
    expect(errorSchema.safeParse(ownRatio.body).success, JSON.stringify(ownRatio.body)).toBe(true);
  });

  it("sends a region on the base as Imagen's mask image; a region on another input stays a box of ours", async () => {
    const edit = (regions: object[]): ProviderRequest => ({
      taskId: "task_contract",
      capability: "image_edit",
      model: "vendorE-image-2.5-sunburst",
      input: { prompt: "paint it blue", model: "vendorE-image-2.5-sunburst", count: 1, canvas: { tier: "1K", aspect: "1:1" }, images: [artifact("base"), artifact("other")], edit_regions: regions },
    });
    const outcome = await submit(edit([{ image_index: 0, x: 0, y: 0, width: 0.5, height: 0.5 }]));
    expect(outcome).toMatchObject({ status: "done" });
    const sent = proxy.bodies[0] as { instances: { referenceImages: { referenceType: string; referenceImage?: { bytesBase64Encoded: string }; maskImageConfig?: object }[] }[]; parameters: { editMode: string } };
    expect(requestSchema.safeParse(sent).success, JSON.stringify(sent).slice(0, 400)).toBe(true);
    expect(sent.parameters.editMode).toBe("EDIT_MODE_INPAINT_INSERTION");
    const mask = sent.instances[0]!.referenceImages.find((reference) => reference.referenceType === "REFERENCE_TYPE_MASK")!;
    expect(mask.maskImageConfig).toEqual({ maskMode: "MASK_MODE_USER_PROVIDED", dilation: 0 });
    expect(await probeMedia(Buffer.from(mask.referenceImage!.bytesBase64Encoded, "base64"))).toMatchObject({ width: 40, height: 80 });

    proxy.bodies.length = 0;
    await submit(edit([{ image_index: 1, x: 0, y: 0, width: 0.5, height: 0.5 }]));
    expect(requestSchema.safeParse(proxy.bodies[0]).success).toBe(false);
  });

  it("adds the catalog's palette only when asked: the one field of such a request the reference lacks", async () => {
    const palette = [
      { color: "#D81B60", weight: 0.5 },
      { color: "#1E88E5", weight: 0.3 },
      { color: "#FFC107", weight: 0.2 },
    ];
    await submit(textRequest("vendorE-image-2.5-flare", { palette }));
    const sent = proxy.bodies[0] as { parameters: Record<string, unknown> };
    expect(requestSchema.safeParse(sent).success).toBe(false);
    const { colorPalette, ...rest } = sent.parameters;
    expect(colorPalette).toHaveLength(3);
    expect(requestSchema.safeParse({ ...sent, parameters: rest }).success).toBe(true);
  });
});

describe("the reference's answers replayed through the adapter", () => {
  async function answered(status: number, body: unknown, count = 2) {
    const vendor = await startRecorder(async (_call, _request, reply) => {
      reply.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    try {
      return await vendorEAdapter(endpointAt(vendor.url))
        .submit(textRequest("vendorE-image-2", { count }), AbortSignal.timeout(30_000))
        .catch((error: unknown) => error);
    } finally {
      await vendor.close();
    }
  }

  it("takes the response example's images as data: URLs", async () => {
    const outcome = (await answered(200, reference.examples.response)) as { status: string; outputs: { url: string }[] };
    expect(outcome.status).toBe("done");
    expect(outcome.outputs.map((output) => output.url.slice(0, 22))).toEqual(["data:image/png;base64,", "data:image/png;base64,"]);
  });

  it.each([
    ["the filtered example", 200, reference.examples.filteredResponse, "content_filtered"],
    ["a set shorter than asked (filtered images left out)", 200, { predictions: [(reference.examples.response as { predictions: unknown[] }).predictions[0]] }, "model_request_failed"],
    ["the refusal example", 400, reference.examples.refusal, "unsupported_option"],
  ])("ends %s as %s, not retried", async (_case, status, body, code) => {
    const failure = await answered(status, body);
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect(failure).toMatchObject({ code, transient: false });
  });
});

describe("the id map", () => {
  it("covers every vendorE model", () => {
    expect(vendorIdProblems(mergeVendorIds({}), ["vendorE"])).toEqual([]);
  });
});
