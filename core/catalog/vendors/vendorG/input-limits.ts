import { MIB, type AudioInputLimits } from "../../input-limits.js";

// V5's upload-cover: the recording lasts at most 8 minutes. Its format, shortest length and size are the service's
// (docs/providers/vendorG.md "Not in the reference").
export const VENDOR_G_REFERENCE: AudioInputLimits = { formats: ["mp3", "wav", "m4a", "ogg"], min_seconds: 6, max_seconds: 480, max_bytes: 50 * MIB };
