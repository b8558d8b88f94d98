import { describe, expect, it } from "vitest";
import { DEFAULT_VENDOR_IDS, mergeVendorIds, vendorIdProblems } from "../../core/catalog/vendor-ids.js";
import type { ProviderEndpoint } from "../../core/config.js";
import type { ProviderOutcome, ProviderRequest } from "../../core/providers/types.js";
import { vendorFAdapter } from "../../core/providers/vendorF/adapter.js";
import { emulatorBehindRecorder, emulatorCall, loadReference, schemaOf } from "./contract-support.js";

// vendorF's protocol matches no published vendor API we could find (docs/providers/vendorF.md). What it shares with
// fal.ai, the published API with the same `Authorization: Key` credential, is kept in
// docs/providers/reference/vendorF-fal-shared.json, and checked here on both sides: the credential, the types of the
// input fields whose names coincide, and fal's image object in a completed task's result. The rest of the protocol
// has no reference to be checked against.

interface Reference {
  authorization: { header: string; pattern: string };
  image: object;
  sharedInput: object;
  examples: { image: unknown; input: unknown };
}

const reference = loadReference<Reference>("vendorF-fal-shared.json");
const imageSchema = schemaOf(reference.image);
const sharedInputSchema = schemaOf(reference.sharedInput);

// A real HTTP hop in front of the emulator that keeps what the adapter sent and what the vendor answered.
const { emulator, proxy } = emulatorBehindRecorder(["authorization"]);

const endpoint = (): ProviderEndpoint => ({ baseUrl: `${proxy.url}/vendorF`, apiKey: "contract-key", ids: DEFAULT_VENDOR_IDS.vendorF });

async function untilDone(request: ProviderRequest): Promise<ProviderOutcome> {
  const adapter = vendorFAdapter(endpoint());
  let outcome = await adapter.submit(request, AbortSignal.timeout(30_000));
  for (let read = 0; outcome.status === "pending" && read < 300; read++) {
    await new Promise((resolve) => setTimeout(resolve, outcome.status === "pending" ? Math.min(outcome.pollAfterMs, 200) : 0));
    outcome = await adapter.poll!(outcome.status === "pending" ? outcome.ref : "", request, AbortSignal.timeout(30_000));
  }
  return outcome;
}

describe("the parts vendorF shares with fal.ai", () => {
  it("the reference copy accepts its own examples", () => {
    expect(imageSchema.safeParse(reference.examples.image).success).toBe(true);
    expect(sharedInputSchema.safeParse(reference.examples.input).success).toBe(true);
  });

  it("the emulator refuses a call without the Key credential", async () => {
    const response = await emulatorCall(emulator.url, "POST", "/vendorF/v2/image-tasks", { model: "vendorF-image-3.0", input: { prompt: "x" } }, { authorization: "Bearer contract-key" });
    expect(response.status).toBe(401);
  });

  it("a text-to-image task: the credential and the shared input fields as fal has them, the result's images as fal's image objects", async () => {
    proxy.requests.length = 0;
    const request: ProviderRequest = {
      taskId: "task_contract",
      capability: "text_to_image",
      model: "vendorF-image-3.0",
      input: { prompt: "a lighthouse", model: "vendorF-image-3.0", count: 2, canvas: { tier: "1K", aspect: "4:3" }, output_relationship: "independent", seed: 42 },
    };
    const outcome = await untilDone(request);
    const seen = proxy.requests;
    const answers = seen.map((call) => call.answer);
    expect(outcome).toMatchObject({ status: "done", outputs: [{ kind: "image" }, { kind: "image" }] });
    for (const call of seen) expect(call.headers.authorization).toMatch(new RegExp(reference.authorization.pattern));
    const created = seen[0]?.body as { input: Record<string, unknown> };
    const { prompt, num_images, image_size, seed } = created.input;
    expect(sharedInputSchema.safeParse({ prompt, num_images, image_size, seed }).success).toBe(true);
    expect(image_size).toEqual({ width: 1024, height: 768 });
    const completed = answers.find((answer) => (answer as { state?: string }).state === "completed") as { result: { images: unknown[] } };
    expect(completed.result.images).toHaveLength(2);
    for (const image of completed.result.images) expect(imageSchema.safeParse(image).success, JSON.stringify(image)).toBe(true);
  });
});

describe("the id map", () => {
  it("maps no vendorF model: there is no published model list to read ids from", () => {
    expect(DEFAULT_VENDOR_IDS.vendorF).toEqual({ models: {}, voices: {} });
    expect(vendorIdProblems(mergeVendorIds({}), ["vendorF"])).toEqual([]);
  });
});
