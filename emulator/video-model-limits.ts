import type { VideoContainer } from "./media/video-render.js";
import { SEEDANCE_MODELS } from "./vendors/vendor-b-models.js";
import { VENDOR_C_VIDEO_MODELS } from "./vendors/vendor-c-models.js";
import { VEO_MODELS } from "./vendors/vendor-d-models.js";
import type { VendorVideoModel, VideoTask } from "./vendors/video-model.js";

// The emulated video vendors accept what each publishes for its models (emulator/vendors/), never what the
// service's catalog says: a catalog that promises more than a vendor takes is refused here, as it would be there.

const VIDEO_MODELS: Readonly<Record<string, readonly VendorVideoModel[]>> = {
  vendorB: SEEDANCE_MODELS,
  vendorC: VENDOR_C_VIDEO_MODELS,
  vendorD: VEO_MODELS,
};

// The family's model by the id its calls send, whatever it is asked to do (an unknown model is refused
// differently from a known one asked for something it does not do).
export function familyVideoModel(family: string, id: unknown): VendorVideoModel | undefined {
  return VIDEO_MODELS[family]?.find((model) => model.id === id);
}

export interface VideoAsk {
  task: VideoTask;
  resolution: string;
  // null: the ratio of the source picture, which any model keeps when asked to.
  aspectRatio: string | null;
  durationSeconds: number;
  container: VideoContainer;
  withAudio: boolean;
  returnLastFrame: boolean;
}

function durationProblem(model: VendorVideoModel, ask: VideoAsk): string | null {
  // An extension's length is checked against its source (video-input-limits.ts), not against the generated lengths.
  if (ask.task === "video_extend") return null;
  const durations = model.resolutionDurations?.[ask.resolution] ?? model.durations;
  if (durations.includes(ask.durationSeconds)) return null;
  const at = model.resolutionDurations?.[ask.resolution] ? ` at ${ask.resolution}` : "";
  return `duration ${ask.durationSeconds} is not one of ${durations.join(", ")}${at}`;
}

// What the vendor would refuse about a request, named by the control (in neutral terms); null when it can be made.
export function videoAskProblem(model: VendorVideoModel, ask: VideoAsk): { control: keyof VideoAsk; reason: string } | null {
  const checks: [keyof VideoAsk, string | null][] = [
    ["resolution", model.resolutions.includes(ask.resolution) ? null : `resolution ${ask.resolution} is not one of ${model.resolutions.join(", ")}`],
    [
      "aspectRatio",
      ask.aspectRatio === null || model.aspectRatios.includes(ask.aspectRatio) ? null : `ratio ${ask.aspectRatio} is not one of ${model.aspectRatios.join(", ")}`,
    ],
    ["durationSeconds", durationProblem(model, ask)],
    ["container", model.containers.includes(ask.container) ? null : `format ${ask.container} is not one of ${model.containers.join(", ")}`],
    ["withAudio", model.audio.includes(ask.withAudio) ? null : `audio ${ask.withAudio ? "on" : "off"} is not offered by ${model.id}`],
    ["returnLastFrame", model.lastFrame.includes(ask.returnLastFrame) ? null : `last frame output is not offered by ${model.id}`],
  ];
  const failed = checks.find(([, reason]) => reason !== null);
  return failed ? { control: failed[0], reason: failed[1] ?? "" } : null;
}
