import type { ProviderEndpoint } from "../../config.js";
import { servingAdapter, type CapabilityHandler } from "../served-capabilities.js";
import type { ProviderAdapter } from "../types.js";
import { everyVideoJob, type VideoJobCapability } from "../video-job.js";
import { pollVendorDVideo, submitVendorDVideo } from "./video.js";

// vendorD: the Gemini API's Veo long-running video operations (generation from text, an image or references,
// and edits). The reference has no cancel for them: once submitted, the vendor renders the clip to the end, so a
// running task cannot be stopped (cancel answers 409) and one past its deadline is abandoned.
export function vendorDAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  const video = {
    submit: (request, signal) => submitVendorDVideo(endpoint, request, signal),
    poll: (ref, _request, signal) => pollVendorDVideo(endpoint, ref, signal),
  } satisfies CapabilityHandler<VideoJobCapability>;
  return servingAdapter<VideoJobCapability>("vendorD", { supportsCancel: false }, {
    ...everyVideoJob(video),
  });
}
