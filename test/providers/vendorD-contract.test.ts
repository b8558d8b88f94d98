import { describe, expect, it } from "vitest";
import { DEFAULT_VENDOR_IDS, mergeVendorIds, vendorIdProblems } from "../../core/catalog/vendor-ids.js";
import { VIDEO_MODELS } from "../../core/catalog/video-models.js";
import type { ProviderEndpoint } from "../../core/config.js";
import { probeMedia } from "../../core/media/probe.js";
import { ProviderFailure, type ProviderOutcome, type ProviderRequest } from "../../core/providers/types.js";
import { vendorDAdapter } from "../../core/providers/vendorD/adapter.js";
import type { ResolvedMediaInput } from "../../core/providers/vendor-input.js";
import { emulatorBehindRecorder, emulatorCall as callEmulator, loadReference, schemaOf as schema, startRecorder } from "./contract-support.js";
import { COLOURS, halvesPng } from "./video-media.js";

// vendorD against the copy of the Gemini API's Veo reference kept in the repo
// (docs/providers/reference/vendorD-veo-predict-long-running.json): the adapter's requests and the emulator's
// answers must fit its schemas, and its own examples must go through both. A disagreement between the emulator
// and the reference fails here.

interface Reference {
  models: string[];
  request: object;
  operation: object;
  error: object;
  examples: Record<"textRequest" | "imageRequest" | "submitted" | "running" | "done" | "filtered" | "failed" | "refusal", Record<string, unknown>>;
}

const reference = loadReference<Reference>("vendorD-veo-predict-long-running.json");
const requestSchema = schema(reference.request);
const operationSchema = schema(reference.operation);
const errorSchema = schema(reference.error);

const KEY = "contract-key";
const VEO = "veo-3.1-generate-preview";

let picture: Buffer;

// A real HTTP hop in front of the vendor that also serves the test's pictures at /pictures/… as the service's signed
// URLs would.
const { emulator, proxy } = emulatorBehindRecorder(["x-goog-api-key"], async () => {
  picture = await halvesPng(64, 48, COLOURS.red!, COLOURS.blue!);
  return { picture };
});

function endpointAt(baseUrl: string): ProviderEndpoint {
  return { baseUrl, apiKey: KEY, ids: DEFAULT_VENDOR_IDS.vendorD };
}

function pictureInput(url: string): ResolvedMediaInput {
  return { url, kind: "image", format: "png", width: 64, height: 48, duration_seconds: 0, has_audio: false };
}

async function emulatorCall(method: "GET" | "POST", target: string, body?: unknown, key: string | null = KEY) {
  const { status, json } = await callEmulator(emulator.url, method, `/vendorD/v1beta/${target}`, body, key === null ? {} : { "x-goog-api-key": key });
  return { status, body: json };
}

// Reads the operation until it is done, checking every answer against the reference.
async function finishedOperation(name: string): Promise<Record<string, unknown>> {
  for (let read = 0; read < 600; read++) {
    const { status, body } = await emulatorCall("GET", name);
    expect(status).toBe(200);
    expect(operationSchema.safeParse(body).success, JSON.stringify(body)).toBe(true);
    if (body.done === true) return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} never finished`);
}

describe("the reference copy", () => {
  it("accepts its own examples", () => {
    expect(requestSchema.safeParse(reference.examples.textRequest).success).toBe(true);
    expect(requestSchema.safeParse(reference.examples.imageRequest).success).toBe(true);
    for (const answer of ["submitted", "running", "done", "filtered", "failed"] as const) {
      expect(operationSchema.safeParse(reference.examples[answer]).success, answer).toBe(true);
    }
    expect(errorSchema.safeParse(reference.examples.refusal).success).toBe(true);
  });

  it("refuses what the old adapter sent and the old emulator answered", () => {
    const text = reference.examples.textRequest as { instances: object[]; parameters: object };
    expect(requestSchema.safeParse({ ...text, parameters: { ...text.parameters, generateAudio: true } }).success).toBe(false);
    expect(requestSchema.safeParse({ ...text, instances: [{ prompt: "x", image: { uri: "https://files.example/a.png", mimeType: "image/png" } }] }).success).toBe(false);
    expect(requestSchema.safeParse({ ...text, instances: [{ prompt: "x", referenceImages: [{ image: { uri: "https://a", mimeType: "image/png" }, referenceType: "character" }] }] }).success).toBe(false);
    const done = reference.examples.done as { response: { generateVideoResponse: object } };
    expect(operationSchema.safeParse({ ...done, response: done.response.generateVideoResponse }).success).toBe(false);
  });
});

describe("the emulator answers as the reference does", () => {
  it("runs the text example to a video whose download takes the key", async () => {
    const submitted = await emulatorCall("POST", `models/${VEO}:predictLongRunning`, reference.examples.textRequest);
    expect(submitted.status).toBe(200);
    expect(operationSchema.safeParse(submitted.body).success).toBe(true);
    const done = (await finishedOperation(String(submitted.body.name))) as { response: { generateVideoResponse: { generatedSamples: { video: { uri: string } }[] } } };
    const uri = done.response.generateVideoResponse.generatedSamples[0]!.video.uri;
    expect((await fetch(uri)).status).toBe(403);
    const download = await fetch(uri, { headers: { "x-goog-api-key": KEY } });
    expect(download.status).toBe(200);
    const probe = await probeMedia(Buffer.from(await download.arrayBuffer()));
    expect(probe).toMatchObject({ width: 1280, height: 720, hasAudio: true });
    expect(probe.durationSeconds).toBeCloseTo(8, 0);
  });

  it("takes a first frame inline and follows its picture", async () => {
    const body = { instances: [{ prompt: "The halves trade places", image: { bytesBase64Encoded: picture.toString("base64"), mimeType: "image/png" } }], parameters: { durationSeconds: 8 } };
    expect(requestSchema.safeParse(body).success).toBe(true);
    const submitted = await emulatorCall("POST", `models/${VEO}:predictLongRunning`, body);
    expect(submitted.status).toBe(200);
    const done = await finishedOperation(String(submitted.body.name));
    expect(done).not.toHaveProperty("error");
  });

  it.each([
    ["our own model id", "vendorD-1.1-t2v:predictLongRunning", reference.examples.textRequest, KEY, 404],
    ["a generateAudio parameter (Vertex AI's, not the Gemini API's)", `${VEO}:predictLongRunning`, { ...reference.examples.textRequest, parameters: { generateAudio: true } }, KEY, 400],
    ["an image by URL", `${VEO}:predictLongRunning`, { instances: [{ prompt: "x", image: { uri: "https://files.example/a.png", mimeType: "image/png" } }] }, KEY, 400],
    ["a call without a key", `${VEO}:predictLongRunning`, reference.examples.textRequest, null, 403],
    ["a 5 s clip (Veo makes 4, 6 or 8)", `${VEO}:predictLongRunning`, { ...reference.examples.textRequest, parameters: { durationSeconds: 5 } }, KEY, 400],
    ["1080p shorter than 8 s", `${VEO}:predictLongRunning`, { ...reference.examples.textRequest, parameters: { resolution: "1080p", durationSeconds: 4 } }, KEY, 400],
    ["a 1:1 ratio", `${VEO}:predictLongRunning`, { ...reference.examples.textRequest, parameters: { aspectRatio: "1:1" } }, KEY, 400],
  ])("refuses %s as the reference's error shape", async (_case, target, body, key, status) => {
    const answer = await emulatorCall("POST", `models/${target}`, body, key);
    expect(answer.status).toBe(status);
    expect(errorSchema.safeParse(answer.body).success, JSON.stringify(answer.body)).toBe(true);
  });

  it("has no cancel", async () => {
    const submitted = await emulatorCall("POST", `models/${VEO}:predictLongRunning`, reference.examples.textRequest);
    const cancel = await fetch(`${emulator.url}/vendorD/v1beta/${String(submitted.body.name)}:cancel`, { method: "POST", headers: { "x-goog-api-key": KEY, "content-type": "application/json" }, body: "{}" });
    expect(cancel.status).toBe(404);
  });
});

describe("the adapter's requests fit the reference", () => {
  const submit = (request: ProviderRequest) => vendorDAdapter(endpointAt(`${proxy.url}/vendorD`)).submit(request, AbortSignal.timeout(60_000));

  it.each(VIDEO_MODELS.filter((model) => model.family === "vendorD").map((model) => model.id))("sends %s as the vendor's model id", async (model) => {
    expect(DEFAULT_VENDOR_IDS.vendorD?.models[model]).toBe(VEO);
  });

  it("sends text to video with the ratio, resolution and length, and nothing the Gemini API lacks", async () => {
    const outcome = await submit({ taskId: "task_contract", capability: "text_to_video", model: "vendorD-1.1-t2v", input: { prompt: "A kite", resolution: "720p", aspect_ratio: "9:16", duration: 8 } });
    const sent = proxy.bodies[0];
    expect(requestSchema.safeParse(sent).success, JSON.stringify(sent)).toBe(true);
    expect(sent).toEqual({ instances: [{ prompt: "A kite" }], parameters: { aspectRatio: "9:16", resolution: "720p", durationSeconds: 8 } });
    expect(outcome).toMatchObject({ status: "pending", ref: expect.stringMatching(new RegExp(`^models/${VEO}/operations/`)) });
  });

  it("sends a first frame's bytes inline, leaving the ratio to the picture", async () => {
    await submit({ taskId: "task_contract", capability: "image_to_video", model: "vendorD-1.1-i2v", input: { prompt: "Wake up", resolution: "720p", duration: 8, image: pictureInput(`${proxy.url}/pictures/a.png`) } });
    const sent = proxy.bodies[0] as { instances: { image: { bytesBase64Encoded: string; mimeType: string } }[]; parameters: Record<string, unknown> };
    expect(requestSchema.safeParse(sent).success).toBe(true);
    expect(Buffer.from(sent.instances[0]!.image.bytesBase64Encoded, "base64").equals(picture)).toBe(true);
    expect(sent.instances[0]!.image.mimeType).toBe("image/png");
    expect(sent.parameters.aspectRatio).toBeUndefined();
  });

  it("sends references as inline asset images", async () => {
    const media = pictureInput(`${proxy.url}/pictures/b.png`);
    await submit({
      taskId: "task_contract",
      capability: "reference_to_video",
      model: "vendorD-1.1-r2v",
      input: { prompt: "Both in one room", resolution: "720p", duration: 8, references: [{ kind: "image", media, role: "character" }, { kind: "image", media }] },
    });
    const sent = proxy.bodies[0] as { instances: { referenceImages: { referenceType: string }[] }[] };
    expect(requestSchema.safeParse(sent).success).toBe(true);
    expect(sent.instances[0]!.referenceImages.map((r) => r.referenceType)).toEqual(["asset", "asset"]);
  });
});

describe("the reference's answers replayed through the adapter", () => {
  async function polled(answer: Record<string, unknown>): Promise<ProviderOutcome | ProviderFailure> {
    const vendor = await startRecorder(async (_call, _request, reply) => {
      reply.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
    try {
      const adapter = vendorDAdapter(endpointAt(vendor.url));
      const request: ProviderRequest = { taskId: "task_contract", capability: "text_to_video", model: "vendorD-1.1-t2v", input: { prompt: "x" } };
      return await adapter.poll!(String(answer.name), request, AbortSignal.timeout(30_000)).catch((error: unknown) => error as ProviderFailure);
    } finally {
      await vendor.close();
    }
  }

  it("takes the finished example's video, to be downloaded with the key", async () => {
    expect(await polled(reference.examples.done)).toEqual({
      status: "done",
      outputs: [{ url: "https://generativelanguage.googleapis.com/v1beta/files/example0001:download?alt=media", kind: "video", format: "mp4", headers: { "x-goog-api-key": KEY } }],
    });
  });

  it("keeps following the running example", async () => {
    expect(await polled(reference.examples.running)).toMatchObject({ status: "pending", ref: reference.examples.running.name });
  });

  it.each([
    ["filtered", "content_filtered"],
    ["failed", "model_request_failed"],
  ] as const)("ends the %s example as %s", async (example, code) => {
    const failure = await polled(reference.examples[example]);
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect(failure).toMatchObject({ code, transient: false });
  });

  // A 400 refuses the request's parameters: a limit the catalog missed, not worth retrying (unsupported_option).
  it("does not retry the refusal example", async () => {
    const vendor = await startRecorder(async (_call, _request, reply) => {
      reply.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify(reference.examples.refusal));
    });
    try {
      const failure = await vendorDAdapter(endpointAt(vendor.url))
        .submit({ taskId: "task_contract", capability: "text_to_video", model: "vendorD-1.1-t2v", input: { prompt: "x", duration: 8 } }, AbortSignal.timeout(30_000))
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: "unsupported_option", transient: false });
    } finally {
      await vendor.close();
    }
  });

  it("can cancel nothing: the adapter has no cancel", () => {
    const adapter = vendorDAdapter(endpointAt("http://127.0.0.1:9"));
    expect(adapter.supportsCancel).toBe(false);
    expect(adapter.cancel).toBeUndefined();
  });
});

describe("the id map", () => {
  it("names models the vendor's listing has", async () => {
    const listing = await emulatorCall("GET", "models");
    expect(listing.status).toBe(200);
    const names = (listing.body.models as { name: string }[]).map((model) => model.name);
    for (const id of Object.values(DEFAULT_VENDOR_IDS.vendorD?.models ?? {})) expect(names).toContain(`models/${id}`);
  });

  it("covers every vendorD model, with VENDOR_ID_MAP entries replacing defaults", () => {
    expect(vendorIdProblems(mergeVendorIds({}), ["vendorD"])).toEqual([]);
    const fast = mergeVendorIds({ vendorD: { models: { "vendorD-1.1-t2v": "veo-3.1-fast-generate-preview" }, voices: {} } });
    expect(fast.vendorD?.models["vendorD-1.1-t2v"]).toBe("veo-3.1-fast-generate-preview");
    expect(fast.vendorD?.models["vendorD-1.1-i2v"]).toBe(VEO);
    expect(reference.models).toContain(fast.vendorD?.models["vendorD-1.1-t2v"]);
  });
});
