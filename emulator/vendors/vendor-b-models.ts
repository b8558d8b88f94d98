import { secondsRange, type VendorVideoModel } from "./video-model.js";

// The Seedance models the emulated ModelArk serves, as its reference publishes them (docs/providers/vendorB.md,
// docs/providers/reference/vendorB-video-generation.json): `resolution` 480p, 720p or 1080p, the six named
// `ratio` values (and `adaptive`, the source picture's), `duration` 4 to 15 seconds, MP4 only. The reference
// gives no narrower bounds per model, so the models differ only where their listing does (2.5's references).

const SEEDANCE_2: Omit<VendorVideoModel, "id"> = {
  tasks: ["text_to_video", "image_to_video", "frames_to_video", "reference_to_video", "video_edit", "video_extend"],
  durations: secondsRange(4, 15),
  resolutions: ["480p", "720p", "1080p"],
  aspectRatios: ["16:9", "4:3", "1:1", "3:4", "9:16", "21:9"],
  containers: ["mp4"],
  audio: [false, true],
  lastFrame: [false, true],
  drivingAudio: true,
  frameModes: ["first_and_last", "last_only"],
  references: { maxTotal: 15, maxPerKind: { image: 9, video: 3, audio: 3 }, voices: false },
  editAudio: ["auto", "origin"],
  extendMaxSeconds: 15,
};

export const SEEDANCE_MODELS: readonly VendorVideoModel[] = [
  { ...SEEDANCE_2, id: "dreamina-seedance-2-0-260128" },
  { ...SEEDANCE_2, id: "dreamina-seedance-2-0-fast-260128" },
  { ...SEEDANCE_2, id: "dreamina-seedance-2-0-mini" },
  { ...SEEDANCE_2, id: "dreamina-seedance-2-5-260628", references: { maxTotal: 50, maxPerKind: { image: 50, video: 10, audio: 10 }, voices: true } },
];

// The name the emulator's control routes (scripted faults, the request log) give each Seedance model: the
// service's neutral id, which tests script faults with.
const CONTROL_NAMES: Readonly<Record<string, string>> = {
  "dreamina-seedance-2-0-260128": "vendorB-2",
  "dreamina-seedance-2-0-fast-260128": "vendorB-2-fast",
  "dreamina-seedance-2-0-mini": "vendorB-2-mini",
  "dreamina-seedance-2-5-260628": "vendorB-2.5",
};

export function controlNameOf(vendorModel: string): string {
  return CONTROL_NAMES[vendorModel] ?? vendorModel;
}
