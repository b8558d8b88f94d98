import { findCapability } from "../capabilities/table.js";
import { findModel } from "../catalog/registry.js";
import { findPrice, priceLine } from "../credits/pricing.js";
import type { StoredMedia } from "../providers/output-storage.js";
import type { ProviderResult } from "../providers/types.js";
import type { StoredUsage } from "./envelope.js";
import type { NewArtifact } from "../db/statements/insert-artifacts.js";
import type { TaskRow } from "./repository.js";

// What a task's outputs, once stored (core/providers/output-storage.ts), make of its envelope: the usage measured
// from their bytes and the output the capability shapes.

function mediaOf(artifact: NewArtifact): StoredMedia {
  return artifact.media as StoredMedia;
}

// A postpaid quote's lines re-priced from the measured counters (the capture stays capped by the hold): the meters
// its capability's entry names; a capability this build no longer has keeps its quote.
function repricePostpaid(task: TaskRow, quote: StoredUsage, counters: StoredUsage["counters"]): StoredUsage {
  const prices = findModel(task.resolvedModel)?.prices ?? [];
  const capability = findCapability(task.capability);
  const meters = capability?.billingMode === "postpaid" ? capability.postpaidMeters : {};
  const lines = quote.lines.map((line) => {
    const counter = meters[line.meter];
    const measured = counter === undefined ? undefined : counters[counter];
    if (measured === undefined) return line;
    const priced = priceLine(findPrice(prices, line.meter), BigInt(measured));
    return { ...line, quantity: String(measured), amount_micro: String(priced.amountMicro) };
  });
  return { counters, lines, total_micro: String(lines.reduce((sum, l) => sum + BigInt(l.amount_micro), 0n)) };
}

// Usage counters come from the stored bytes (and from the vendor for what bytes cannot tell). Prepaid work is
// billed its admission quote; postpaid work is re-priced from what was measured.
export function measuredUsage(task: TaskRow, stored: NewArtifact[], result: ProviderResult): StoredUsage {
  const quote = task.quote as StoredUsage;
  const counters = { ...quote.counters };
  const images = stored.filter((a) => a.kind === "image" && mediaOf(a).role !== "last_frame");
  const videos = stored.filter((a) => a.kind === "video");
  const audio = stored.filter((a) => a.kind === "audio");
  if (images.length > 0) {
    counters.image_count = images.length;
    counters.image_pixels = images.reduce((sum, a) => sum + (mediaOf(a).width ?? 0) * (mediaOf(a).height ?? 0), 0);
  }
  if (videos.length > 0) {
    const seconds = Math.ceil(videos.reduce((sum, a) => sum + mediaOf(a).durationSeconds, 0));
    counters.output_video_seconds = seconds;
    counters.video_seconds = seconds;
  }
  if (audio.length > 0) counters.audio_seconds = Math.ceil(audio.reduce((sum, a) => sum + mediaOf(a).durationSeconds, 0));
  const measured = { ...counters, ...result.measured };
  return task.billingMode === "postpaid" ? repricePostpaid(task, quote, measured) : { ...quote, counters: measured };
}

// The output as the capability's entry shapes it (its `type`, whether its artifacts are also `clips[]`); a
// capability this build no longer has is typed by its first artifact's kind.
export function outputOf(task: TaskRow, stored: NewArtifact[], result: ProviderResult): Record<string, unknown> {
  const shape = findCapability(task.capability)?.output;
  const artifacts = stored.map((a) => {
    const media = mediaOf(a);
    return {
      artifact_id: a.id,
      kind: a.kind,
      ...(media.role ? { role: media.role } : {}),
      content_type: a.contentType,
      byte_size: a.byteSize,
      format: media.format,
      ...(a.kind === "image" || a.kind === "video" ? { width: media.width, height: media.height } : {}),
      ...(a.kind !== "image" ? { duration_seconds: media.durationSeconds } : {}),
      ...(a.kind === "audio" ? { sample_rate: media.sampleRate, channels: media.channels } : {}),
      ...(a.kind === "video" ? { has_audio: media.hasAudio } : {}),
    };
  });
  return {
    type: shape?.type === "capability_id" ? task.capability : (stored[0]?.kind ?? task.capability),
    ...(result.text !== undefined ? { text: result.text } : {}),
    ...result.data,
    artifacts,
    ...(shape?.clips ? { clips: artifacts } : {}),
  };
}
