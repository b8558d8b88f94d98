import type { VendorImageModel } from "./image-model.js";

// The Imagen models the emulated Vertex AI serves, as its reference publishes them (docs/providers/vendorE.md,
// docs/providers/reference/vendorE-imagen-predict.json): `sampleCount` 1 to 4, `sampleImageSize` 1K or 2K and
// the five `aspectRatio` values. Imagen has no negative prompt on these models. The palette, related sets and
// several input images are fields of ours the reference does not have (vendorE.md, "Where we still differ"):
// the stand-in keeps serving them so the service's use of them stays tested. An `aspectRatio` other than the
// five is refused, an input image's own ratio included, as Imagen refuses it.

const IMAGEN_ASPECTS = ["1:1", "3:4", "4:3", "9:16", "16:9"];
const IMAGEN: Omit<VendorImageModel, "id"> = {
  counts: [1, 2, 3, 4],
  tiers: ["1K", "2K"],
  aspects: IMAGEN_ASPECTS,
  sourceRatio: false,
  sequence: false,
  palette: false,
  seed: true,
  negativePrompt: false,
  maxInputImages: 4,
  maxEditRegions: 0,
};

export const IMAGEN_MODELS: readonly VendorImageModel[] = [
  { ...IMAGEN, id: "imagen-4.0-ultra-generate-001", sequence: true, palette: true },
  { ...IMAGEN, id: "imagen-3.0-capability-001", sequence: true, maxInputImages: 10, maxEditRegions: 4 },
  { ...IMAGEN, id: "imagen-4.0-generate-001" },
];

// The name the emulator's control routes (scripted faults, the request log) give each Imagen model: the
// service's neutral id, which tests script faults with.
const CONTROL_NAMES: Readonly<Record<string, string>> = {
  "imagen-4.0-ultra-generate-001": "vendorE-image-2.5-flare",
  "imagen-3.0-capability-001": "vendorE-image-2.5-sunburst",
  "imagen-4.0-generate-001": "vendorE-image-2",
};

export function controlNameOf(imagenId: string): string {
  return CONTROL_NAMES[imagenId] ?? imagenId;
}
