import type { MediaKind } from "./slots.js";

// The largest file of each kind the service downloads (docs/decisions.md). A media input is also bounded by
// MEDIA_INPUT_MAX_BYTES, whichever is smaller; a vendor's output only by its kind's cap here.
const MiB = 1024 * 1024;

export const MEDIA_INPUT_CAPS: Readonly<Record<MediaKind, number>> = {
  image: 50 * MiB,
  audio: 200 * MiB,
  video: 1024 * MiB,
};

export const VENDOR_OUTPUT_CAPS: Readonly<Record<MediaKind, number>> = {
  image: 64 * MiB,
  audio: 256 * MiB,
  video: 2048 * MiB,
};

export function mediaInputCap(kind: MediaKind, configuredMax: number): number {
  return Math.min(MEDIA_INPUT_CAPS[kind], configuredMax);
}
