import { NO_REFERENCES, type VendorVideoModel, type VideoTask } from "./video-model.js";

// The Veo models the emulated Gemini API serves, as its Veo guide and reference publish them
// (docs/providers/vendorD.md, docs/providers/reference/vendorD-veo-predict-long-running.json): one model takes text,
// a first image, up to three asset reference images or a video; `durationSeconds` 4, 6 or 8 (1080p and 4k at 8
// only); `resolution` 720p, 1080p or 4k; `aspectRatio` 16:9 or 9:16; sound always on; MP4.

const VEO_3_1: Omit<VendorVideoModel, "id"> = {
  tasks: ["text_to_video", "image_to_video", "reference_to_video", "video_edit"],
  durations: [4, 6, 8],
  resolutionDurations: { "1080p": [8], "4k": [8] },
  resolutions: ["720p", "1080p", "4k"],
  aspectRatios: ["16:9", "9:16"],
  containers: ["mp4"],
  audio: [true],
  lastFrame: [false],
  drivingAudio: false,
  frameModes: [],
  references: { ...NO_REFERENCES, maxTotal: 3, maxPerKind: { image: 3, video: 0, audio: 0 } },
  editAudio: ["auto"],
  extendMaxSeconds: null,
};

export const VEO_MODELS: readonly VendorVideoModel[] = [
  { ...VEO_3_1, id: "veo-3.1-generate-preview" },
  { ...VEO_3_1, id: "veo-3.1-fast-generate-preview" },
];

export function isVeoModel(id: string): boolean {
  return VEO_MODELS.some((model) => model.id === id);
}

// The name the emulator's control routes (scripted faults, the request log) give a Veo call: the service's neutral
// model for what its inputs ask, which tests script faults with; the Veo id itself for inputs none of ours sends.
const CONTROL_NAMES: Readonly<Partial<Record<VideoTask, string>>> = {
  text_to_video: "vendorD-1.1-t2v",
  image_to_video: "vendorD-1.1-i2v",
  reference_to_video: "vendorD-1.1-r2v",
  video_edit: "vendorD-1.0-video-edit",
};

export function controlNameOf(vendorModel: string, task: VideoTask): string {
  return CONTROL_NAMES[task] ?? vendorModel;
}
