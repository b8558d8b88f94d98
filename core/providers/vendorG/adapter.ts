import type { ProviderEndpoint } from "../../config.js";
import { isMusicCapability } from "../music-job.js";
import { ProviderFailure, type ProviderAdapter } from "../types.js";
import { pollVendorGMusic, submitVendorGMusic } from "./music.js";

// vendorG: music (text and reference audio), a task followed by polling. The vendor offers no way to stop a
// task, so a running one cannot be canceled.
export function vendorGAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    family: "vendorG",
    supportsCancel: false,
    async submit(request, signal) {
      if (isMusicCapability(request.capability)) return submitVendorGMusic(endpoint, request, signal);
      throw new ProviderFailure("model_unavailable", `vendorG has no adapter for ${request.capability}`, false);
    },
    async poll(ref, request, signal) {
      if (isMusicCapability(request.capability)) return pollVendorGMusic(endpoint, ref, request, signal);
      throw new ProviderFailure("model_request_failed", `vendorG has no ${request.capability} jobs to follow`, false);
    },
  };
}
