import { describe, expect, it } from "vitest";
import { probeMedia } from "../../core/media/probe.js";
import type { ProviderRequestOf } from "../../core/providers/served-capabilities.js";
import { generateImages } from "../../core/providers/vendorA/image.js";
import { emulatorBehindRecorder, emulatorCall, loadExchangeReference, vendorAEndpoint as endpointAt } from "./contract-support.js";

// vendorA image generation against the copy of its reference kept in the repo
// (docs/providers/reference/vendorA-image-generation.json): the adapter's requests and the emulator's answers
// must fit it.

const reference = loadExchangeReference("vendorA-image-generation.json");

const { emulator, proxy } = emulatorBehindRecorder(["authorization"]);

function imageRequest(input: Record<string, unknown>): ProviderRequestOf<"text_to_image"> {
  return { taskId: "task_contract", capability: "text_to_image", model: "image-01-live", input: { prompt: "a red kite", model: "image-01-live", canvas: { type: "preset", tier: "2K", aspect: "16:9" }, count: 2, output_relationship: "independent", ...input } };
}

async function emulatorImages(body: unknown): Promise<Record<string, unknown> & { base_resp: { status_code: number } }> {
  const { status, json } = await emulatorCall<Record<string, unknown> & { base_resp: { status_code: number } }>(emulator.url, "POST", "/vendorA/v1/image_generation", body, { authorization: "Bearer contract-key" });
  expect(status).toBe(200);
  return json;
}

describe("the adapter's requests fit the reference, and the emulator's answers too", () => {
  it("text to image: the vendor's model id, the canvas as width and height, URLs asked for", async () => {
    const outcome = await generateImages(endpointAt(`${proxy.url}/vendorA`), imageRequest({ enhance_prompt: true }), AbortSignal.timeout(120_000));
    const sent = proxy.bodies[0] as Record<string, unknown>;
    expect(reference.request.safeParse(sent).success).toBe(true);
    expect(sent).toMatchObject({ model: "image-01-live", width: 2048, height: 1152, n: 2, response_format: "url", prompt_optimizer: true });
    expect(outcome.status === "done" ? outcome.outputs.length : 0).toBe(2);
    const first = outcome.status === "done" ? (outcome.outputs[0]?.url ?? "") : "";
    expect(await probeMedia(Buffer.from(await (await fetch(first)).arrayBuffer()))).toMatchObject({ width: 2048, height: 1152 });
  }, 150_000);

  it("the emulator's answer fits the reference's response", async () => {
    const answer = await emulatorImages({ model: "image-01-live", prompt: "a red kite", width: 1024, height: 1024, n: 1, response_format: "url" });
    expect(reference.response.safeParse(answer).success).toBe(true);
    expect(answer.base_resp.status_code).toBe(0);
  }, 120_000);

  it.each([
    ["a model the vendor does not have", { model: "vendorA-image-9" }],
    ["more than 9 images", { n: 10 }],
    ["a side above 2048 pixels", { width: 4096 }],
    ["a side that is not a multiple of 8", { height: 1001 }],
  ])("the emulator refuses %s with 2013", async (_case, change) => {
    const answer = await emulatorImages({ model: "image-01-live", prompt: "a red kite", width: 1024, height: 1024, n: 1, response_format: "url", ...change });
    expect(answer.base_resp.status_code).toBe(2013);
  });
});
