import type { ProviderEndpoint } from "../../config.js";
import { servingAdapter, type CapabilityHandler } from "../served-capabilities.js";
import type { ProviderAdapter } from "../types.js";
import { everyVideoJob, type VideoJobCapability } from "../video-job.js";
import { enhanceVendorBPrompt } from "./enhancer.js";
import { cancelVendorBVideo, pollVendorBVideo, submitVendorBVideo } from "./video.js";

// vendorB: video generation, edit and extension tasks (polled, cancellable) and the synchronous prompt enhancer.
export function vendorBAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  const video = {
    submit: (request, signal) => submitVendorBVideo(endpoint, request, signal),
    poll: (ref, request, signal) => pollVendorBVideo(endpoint, ref, request, signal),
    cancel: (ref, _request, signal) => cancelVendorBVideo(endpoint, ref, signal),
  } satisfies CapabilityHandler<VideoJobCapability>;
  return servingAdapter<VideoJobCapability | "video_prompt_enhancement">("vendorB", { supportsCancel: true }, {
    ...everyVideoJob(video),
    video_prompt_enhancement: { submit: (request, signal) => enhanceVendorBPrompt(endpoint, request, signal) },
  });
}
