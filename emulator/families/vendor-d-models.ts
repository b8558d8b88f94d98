// The Veo models the emulated Gemini API serves (docs/providers/vendorD.md). One Veo model takes every kind of
// input; what it accepts for each is that of the service's catalog model named here, so that the emulator renders
// exactly what the service promises (the emulator keeps its own list of the vendor's ids, issue 15).

const VEO_3_1 = {
  text_to_video: "vendorD-1.1-t2v",
  image_to_video: "vendorD-1.1-i2v",
  reference_to_video: "vendorD-1.1-r2v",
  video_edit: "vendorD-1.0-video-edit",
} as const satisfies Record<string, string>;

const VEO_MODELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "veo-3.1-generate-preview": VEO_3_1,
  "veo-3.1-fast-generate-preview": VEO_3_1,
};

export function isVeoModel(id: string): boolean {
  return Object.hasOwn(VEO_MODELS, id);
}

// The catalog model whose limits a Veo model keeps for the capability its inputs ask for; undefined when it has
// none for it (lastFrame, for one, is not offered here).
export function emulatedModelFor(id: string, capability: string): string | undefined {
  return VEO_MODELS[id]?.[capability];
}
