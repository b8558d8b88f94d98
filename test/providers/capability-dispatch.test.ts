import { describe, expect, it } from "vitest";
import { ProviderFailure, type ProviderAdapter, type ProviderRequest } from "../../core/providers/types.js";
import { vendorAAdapter } from "../../core/providers/vendorA/adapter.js";
import { vendorBAdapter } from "../../core/providers/vendorB/adapter.js";
import { vendorCAdapter } from "../../core/providers/vendorC/adapter.js";
import { vendorDAdapter } from "../../core/providers/vendorD/adapter.js";
import { vendorEAdapter } from "../../core/providers/vendorE/adapter.js";
import { vendorFAdapter } from "../../core/providers/vendorF/adapter.js";
import { vendorGAdapter } from "../../core/providers/vendorG/adapter.js";

// How each family's adapter answers the worker for a capability it does not run: nothing is sent to the vendor
// (the endpoint does not exist), the task fails for good as model_unavailable.

const endpoint = { baseUrl: "http://127.0.0.1:9", apiKey: "unused" };

function request(capability: string): ProviderRequest {
  return { taskId: "task_dispatch", capability, model: "some-model", input: {} };
}

async function failureOf(call: Promise<unknown>): Promise<ProviderFailure> {
  const error: unknown = await call.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ProviderFailure);
  return error as ProviderFailure;
}

const UNSERVED: [string, ProviderAdapter][] = [
  ["video_edit", vendorAAdapter(endpoint)],
  ["text_to_speech", vendorBAdapter(endpoint)],
  ["image_to_text", vendorCAdapter(endpoint)],
  ["text_to_image", vendorDAdapter(endpoint)],
  ["text_to_video", vendorEAdapter(endpoint)],
  ["voice_clone", vendorFAdapter(endpoint)],
  ["text_to_speech", vendorGAdapter(endpoint)],
];

describe("a capability a family does not serve", () => {
  it.each(UNSERVED)("%s is refused as model_unavailable, not to be retried", async (capability, adapter) => {
    const failure = await failureOf(adapter.submit(request(capability), AbortSignal.timeout(5_000)));
    expect(failure.code).toBe("model_unavailable");
    expect(failure.transient).toBe(false);
    expect(failure.message).toContain(capability);
  });

  it("has no job to follow", async () => {
    const failure = await failureOf(vendorGAdapter(endpoint).poll?.("ref", request("text_to_speech"), AbortSignal.timeout(5_000)) ?? Promise.resolve());
    expect(failure.code).toBe("model_request_failed");
  });
});

describe("stopping a vendor's job", () => {
  it("is offered only by families with a cancel for some capability", () => {
    expect([vendorAAdapter, vendorDAdapter, vendorEAdapter, vendorGAdapter].map((make) => make(endpoint).cancel)).toEqual([undefined, undefined, undefined, undefined]);
    expect([vendorBAdapter, vendorCAdapter, vendorFAdapter].every((make) => typeof make(endpoint).cancel === "function")).toBe(true);
  });

  it("does nothing for a vendorC video task, which cannot be stopped", async () => {
    await expect(vendorCAdapter(endpoint).cancel?.("ref", request("text_to_video"), AbortSignal.timeout(5_000))).resolves.toBeUndefined();
  });
});
