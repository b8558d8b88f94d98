import type { ProviderEndpoint } from "../../config.js";
import type { MusicCapability } from "../music-job.js";
import { servingAdapter, type CapabilityHandler } from "../served-capabilities.js";
import type { ProviderAdapter } from "../types.js";
import { pollVendorGMusic, submitVendorGMusic } from "./music.js";

// vendorG: music (text and reference audio), a task followed by polling. The vendor offers no way to stop a
// task, so a running one cannot be canceled.
export function vendorGAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  const music = {
    submit: (request, signal) => submitVendorGMusic(endpoint, request, signal),
    poll: (ref, request, signal) => pollVendorGMusic(endpoint, ref, request, signal),
  } satisfies CapabilityHandler<MusicCapability>;
  return servingAdapter<MusicCapability>("vendorG", { supportsCancel: false }, { text_to_music: music, reference_audio_to_music: music });
}
