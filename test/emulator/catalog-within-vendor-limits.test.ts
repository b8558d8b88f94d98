import { describe, expect, it } from "vitest";
import { IMAGE_MODELS } from "../../core/catalog/image-models.js";
import { DEFAULT_VENDOR_IDS } from "../../core/catalog/vendor-ids.js";
import { VIDEO_MODELS, type VideoModel } from "../../core/catalog/video-models.js";
import { findImageModel } from "../../emulator/media/image-limits.js";
import { familyVideoModel } from "../../emulator/video-model-limits.js";
import type { VendorVideoModel } from "../../emulator/vendors/video-model.js";

// The catalog promises only what the vendors take. The emulator describes each vendor from its own reference
// (emulator/vendors/), so every card of a family it serves by the vendor's ids must fit inside the limits of the
// vendor model the id map sends it to: a card that offers a tier, ratio, length or count the vendor refuses fails
// here, before any request does.

function vendorIdOf(family: "vendorB" | "vendorC" | "vendorD" | "vendorE", model: string): string {
  return DEFAULT_VENDOR_IDS[family]?.models[model] ?? model;
}

function outside<T>(offered: readonly T[], taken: readonly T[]): T[] {
  return offered.filter((value) => !taken.includes(value));
}

// What a card offers beyond its vendor model, one line each; empty when it fits.
function videoOverreach(card: VideoModel, vendor: VendorVideoModel): string[] {
  const c = card.constraints;
  const problems = [
    ...outside(card.capabilities, vendor.tasks).map((task) => `task ${task}`),
    ...outside(c.resolutions, vendor.resolutions).map((tier) => `resolution ${tier}`),
    ...outside(c.aspect_ratios, vendor.aspectRatios).map((ratio) => `ratio ${ratio}`),
    ...outside(c.output_formats, vendor.containers).map((format) => `format ${format}`),
    ...outside(c.generate_audio, vendor.audio).map((audio) => `audio ${String(audio)}`),
    ...outside(c.return_last_frame, vendor.lastFrame).map((frame) => `last frame ${String(frame)}`),
    ...outside(c.frame_modes, vendor.frameModes).map((mode) => `frame mode ${mode}`),
    ...outside(c.audio_settings, vendor.editAudio).map((setting) => `audio setting ${setting}`),
  ];
  for (const resolution of c.resolutions) {
    const lengths = vendor.resolutionDurations?.[resolution] ?? vendor.durations;
    problems.push(...outside(c.durations, lengths).map((seconds) => `${seconds} s at ${resolution}`));
  }
  const generates = card.capabilities.some((task) => ["text_to_video", "image_to_video", "frames_to_video"].includes(task));
  if (generates && c.driving_audio && !vendor.drivingAudio) problems.push("driving audio");
  if (c.references.max_total > vendor.references.maxTotal) problems.push(`${c.references.max_total} references`);
  for (const kind of ["image", "video", "audio"] as const) {
    if (c.references.max_per_kind[kind] > vendor.references.maxPerKind[kind]) problems.push(`${c.references.max_per_kind[kind]} ${kind} references`);
  }
  if (c.references.reference_voice && !vendor.references.voices) problems.push("reference voices");
  if ((c.extend_max_duration ?? 0) > (vendor.extendMaxSeconds ?? 0)) problems.push(`extension to ${c.extend_max_duration} s`);
  return problems;
}

describe("the catalog promises only what the emulated vendors take", () => {
  const videoCards = VIDEO_MODELS.filter((card) => card.family === "vendorB" || card.family === "vendorC" || card.family === "vendorD");

  it.each(videoCards.map((card) => [card.id, card] as const))("%s fits its vendor model", (_id, card) => {
    const family = card.family as "vendorB" | "vendorC" | "vendorD";
    const vendor = familyVideoModel(family, vendorIdOf(family, card.id));
    expect(vendor, `${card.id} has no vendor model in the emulator`).toBeDefined();
    expect(videoOverreach(card, vendor!)).toEqual([]);
  });

  it.each(IMAGE_MODELS.filter((card) => card.family === "vendorE").map((card) => [card.id, card] as const))("%s fits its Imagen model", (_id, card) => {
    const vendor = findImageModel("vendorE", vendorIdOf("vendorE", card.id));
    expect(vendor, `${card.id} has no Imagen model in the emulator`).toBeDefined();
    const c = card.constraints;
    expect(outside(c.counts, vendor!.counts)).toEqual([]);
    expect(outside(c.canvas_tiers, vendor!.tiers)).toEqual([]);
    expect(outside(c.canvas_aspects.filter((aspect) => aspect !== "source"), vendor!.aspects)).toEqual([]);
    expect(c.negative_prompt && !vendor!.negativePrompt).toBe(false);
    expect(c.seed && !vendor!.seed).toBe(false);
  });
});
