import type { ProviderEndpoint } from "../../config.js";
import { ProviderFailure, type ProviderAdapter } from "../types.js";
import { synthesizeSpeech } from "./speech.js";

// vendorA: speech (synchronous). Its other capabilities arrive with their own files.
export function vendorAAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    family: "vendorA",
    supportsCancel: false,
    async submit(request, signal) {
      switch (request.capability) {
        case "text_to_speech":
          return synthesizeSpeech(endpoint, request, signal);
        default:
          throw new ProviderFailure("model_unavailable", `vendorA has no adapter for ${request.capability} yet`, false);
      }
    },
  };
}
