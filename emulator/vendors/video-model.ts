// What an emulated video vendor publishes about one of its models: the limits it refuses a request beyond. The
// tasks are named in the emulator's neutral words for what a submission's inputs describe
// (emulator/video-input-limits.ts); each family reads them off its own wire fields.

export type VideoTask = "text_to_video" | "image_to_video" | "frames_to_video" | "reference_to_video" | "video_edit" | "video_extend";
export type EditAudioSetting = "auto" | "origin";
export type FrameMode = "first_and_last" | "last_only";

export interface VendorVideoModel {
  // The id the vendor's calls name the model by.
  id: string;
  tasks: readonly VideoTask[];
  // Lengths in whole seconds it generates (an extension's final length is bounded by `extendMaxSeconds` instead).
  durations: readonly number[];
  // Resolutions offered at some of those lengths only.
  resolutionDurations?: Readonly<Record<string, readonly number[]>>;
  // Resolution tiers, lower-case ("720p"), and the named ratios it renders them at.
  resolutions: readonly string[];
  aspectRatios: readonly string[];
  containers: readonly ("mp4" | "mov")[];
  // The values it honours for its own sound and for a last-frame image.
  audio: readonly boolean[];
  lastFrame: readonly boolean[];
  drivingAudio: boolean;
  frameModes: readonly FrameMode[];
  references: { maxTotal: number; maxPerKind: Readonly<Record<"image" | "video" | "audio", number>>; voices: boolean };
  editAudio: readonly EditAudioSetting[];
  extendMaxSeconds: number | null;
}

export const NO_REFERENCES: VendorVideoModel["references"] = { maxTotal: 0, maxPerKind: { image: 0, video: 0, audio: 0 }, voices: false };

export function secondsRange(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
