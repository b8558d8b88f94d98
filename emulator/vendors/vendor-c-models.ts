import { secondsRange, type VendorVideoModel } from "./video-model.js";

// The video models the emulated Model Studio serves. The Wan 2.7 ones are as its references publish them
// (docs/providers/vendorC.md): `resolution` 720P or 1080P, the five `ratio` values, `duration` 2 to 15 seconds,
// sound on unless `audio` is false, MP4. The two 3.0 models are not in those references: they keep the service's
// own names and fields (vendorC.md, "Not in the reference"), with the limits this stand-in gives them.

const WAN_RATIOS = ["16:9", "9:16", "1:1", "4:3", "3:4"];
const WAN_2_7: Omit<VendorVideoModel, "id" | "tasks"> = {
  durations: secondsRange(2, 15),
  resolutions: ["720p", "1080p"],
  aspectRatios: WAN_RATIOS,
  containers: ["mp4"],
  audio: [false, true],
  lastFrame: [false],
  drivingAudio: false,
  frameModes: [],
  references: { maxTotal: 0, maxPerKind: { image: 0, video: 0, audio: 0 }, voices: false },
  editAudio: [],
  extendMaxSeconds: null,
};

const VENDOR_C_3_0: Omit<VendorVideoModel, "id"> = {
  tasks: ["text_to_video", "image_to_video", "frames_to_video", "reference_to_video", "video_edit", "video_extend"],
  durations: [5, 10],
  resolutions: ["480p", "720p", "1080p"],
  aspectRatios: WAN_RATIOS,
  containers: ["mp4"],
  audio: [false, true],
  lastFrame: [false],
  drivingAudio: true,
  frameModes: ["first_and_last"],
  references: { maxTotal: 9, maxPerKind: { image: 5, video: 3, audio: 3 }, voices: true },
  editAudio: ["auto", "origin"],
  extendMaxSeconds: 15,
};

export const VENDOR_C_VIDEO_MODELS: readonly VendorVideoModel[] = [
  { ...WAN_2_7, id: "wan2.7-t2v", tasks: ["text_to_video"], drivingAudio: true },
  {
    ...WAN_2_7,
    id: "wan2.7-i2v",
    tasks: ["image_to_video", "frames_to_video", "video_extend"],
    drivingAudio: true,
    frameModes: ["first_and_last"],
    extendMaxSeconds: 15,
  },
  { ...WAN_2_7, id: "wan2.7-r2v", tasks: ["reference_to_video"], references: { maxTotal: 5, maxPerKind: { image: 3, video: 3, audio: 0 }, voices: true } },
  {
    ...WAN_2_7,
    id: "wan2.7-videoedit",
    tasks: ["video_edit"],
    references: { maxTotal: 4, maxPerKind: { image: 4, video: 0, audio: 0 }, voices: false },
    editAudio: ["auto", "origin"],
  },
  { ...VENDOR_C_3_0, id: "vendorC3.0-video" },
  {
    ...VENDOR_C_3_0,
    id: "vendorC3.0-video-prime",
    durations: [5, 10, 15],
    resolutions: ["720p", "1080p", "4k"],
    aspectRatios: [...WAN_RATIOS, "21:9"],
    containers: ["mp4", "mov"],
    lastFrame: [false, true],
    frameModes: ["first_and_last", "last_only"],
    references: { maxTotal: 12, maxPerKind: { image: 9, video: 3, audio: 3 }, voices: true },
    extendMaxSeconds: 30,
  },
];

// The name the emulator's control routes (scripted faults, the request log) give each model: the service's
// neutral id, which tests script faults with.
const CONTROL_NAMES: Readonly<Record<string, string>> = {
  "wan2.7-t2v": "vendorC2.7-t2v",
  "wan2.7-i2v": "vendorC2.7-i2v",
  "wan2.7-r2v": "vendorC2.7-r2v",
  "wan2.7-videoedit": "vendorC2.7-videoedit",
};

export function controlNameOf(vendorModel: string): string {
  return CONTROL_NAMES[vendorModel] ?? vendorModel;
}
