import type { ProviderEndpoint } from "../../config.js";
import type { ImageCapability } from "../image-inputs.js";
import { servingAdapter, type CapabilityHandler } from "../served-capabilities.js";
import type { ProviderAdapter } from "../types.js";
import { everyVideoJob, type VideoJobCapability } from "../video-job.js";
import { cancelImageSynthesis, pollImageSynthesis, submitImageSynthesis } from "./image.js";
import { pollVendorCVideo, submitVendorCVideo } from "./video.js";

// vendorC: asynchronous synthesis tasks for images and video. A running task cannot be stopped at the vendor,
// so a cancel of a running vendorC task is 409.
export function vendorCAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  // Cancel is used when a deadline passes: image jobs still pending are withdrawn; video tasks have no cancel at all.
  const images = {
    submit: (request, signal) => submitImageSynthesis(endpoint, request, signal),
    poll: (ref, request, signal) => pollImageSynthesis(endpoint, ref, request, signal),
    cancel: (ref, request, signal) => cancelImageSynthesis(endpoint, ref, request, signal),
  } satisfies CapabilityHandler<ImageCapability>;
  const video = {
    submit: (request, signal) => submitVendorCVideo(endpoint, request, signal),
    poll: (ref, request, signal) => pollVendorCVideo(endpoint, ref, request, signal),
  } satisfies CapabilityHandler<VideoJobCapability>;
  return servingAdapter<ImageCapability | VideoJobCapability>("vendorC", { supportsCancel: false }, {
    text_to_image: images,
    image_to_image: images,
    image_edit: images,
    ...everyVideoJob(video),
  });
}
