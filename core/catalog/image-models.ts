import { NO_PUBLISHED_LIMITS } from "./input-limits.js";
import { VENDOR_A_IMAGE } from "./vendors/vendorA/input-limits.js";
import { VENDOR_C_WAN27_IMAGE } from "./vendors/vendorC/input-limits.js";
import { VENDOR_E_IMAGEN_CAPABILITY } from "./vendors/vendorE/input-limits.js";
import type { CatalogModelBase } from "./model-types.js";

// What an image generation model can honour. Selection checks a request against these values and quotes them
// back in `candidate_failures[].supported`, and the catalog cards show the same object.
export interface ImageConstraints {
  // Exact numbers of images one request may ask for; the service never splits a request.
  counts: readonly number[];
  // Canvas quality tiers, e.g. "2K"; every model offers "2K", the default of every endpoint.
  canvas_tiers: readonly string[];
  // The tiers offered with input images or as a related set, where the model offers fewer there.
  canvas_tiers_with_inputs?: readonly string[];
  // Canvas aspects; every model offers "16:9" and "source" (the input image's ratio), the endpoint defaults.
  canvas_aspects: readonly string[];
  seed: boolean;
  negative_prompt: boolean;
  // Explicit `enhance_prompt` values the model accepts; empty when it offers no such control.
  enhance_prompt: readonly boolean[];
  // Explicit `reasoning` values the model accepts; [true] for a model that always reasons.
  reasoning: readonly boolean[];
  output_relationships: readonly string[];
  palette: boolean;
  // Most edit regions one edit may carry; 0 when the model cannot edit regions.
  max_edit_regions: number;
  // Most input images (image-to-image references, or an edit's base plus references).
  max_input_images: number;
}

export type ImageModel = CatalogModelBase<"image", ImageConstraints>;

export const IMAGE_OUTPUT_METER = "image_output";

// Every image model serves the three image creation endpoints (SPEC.md lists the same models for each).
const IMAGE_CREATION = ["text_to_image", "image_to_image", "image_edit"] as const;

const WIDE_ASPECTS = ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "21:9", "source"] as const;
// Also the five ratios Imagen renders (vendorE), which takes no other.
const COMMON_ASPECTS = ["1:1", "16:9", "9:16", "4:3", "3:4", "source"] as const;
const BASIC_ASPECTS = ["1:1", "16:9", "9:16", "source"] as const;

function perImage(microPerImage: bigint, tier?: string) {
  return {
    meter: IMAGE_OUTPUT_METER,
    unit: "image",
    microPerUnit: microPerImage,
    per: 1n,
    ...(tier === undefined ? {} : { when: { tier } }),
  };
}

export const IMAGE_MODELS: readonly ImageModel[] = [
  {
    id: "vendorE-image-2.5-flare",
    family: "vendorE",
    kind: "image",
    capabilities: IMAGE_CREATION,
    created: 1_764_547_200,
    description: "Flagship photoreal model at 1K or 2K with reasoning, related sets and palettes; no seed or negative prompt.",
    constraints: {
      counts: [1, 2, 3, 4],
      canvas_tiers: ["1K", "2K"],
      canvas_aspects: COMMON_ASPECTS,
      seed: false,
      negative_prompt: false,
      enhance_prompt: [true, false],
      reasoning: [true, false],
      output_relationships: ["independent", "sequence"],
      palette: true,
      max_edit_regions: 0,
      max_input_images: 4,
    },
    input_limits: NO_PUBLISHED_LIMITS,
    prices: [perImage(40_000n), perImage(30_000n, "1K")],
  },
  {
    id: "vendorE-image-2.5-sunburst",
    family: "vendorE",
    kind: "image",
    capabilities: IMAGE_CREATION,
    created: 1_764_547_200,
    description: "Always-reasoning sibling of flare tuned for editing: many references, region edits and seeds.",
    constraints: {
      counts: [1, 2, 3, 4],
      canvas_tiers: ["1K", "2K"],
      canvas_aspects: COMMON_ASPECTS,
      seed: true,
      negative_prompt: false,
      enhance_prompt: [true, false],
      reasoning: [true],
      output_relationships: ["independent", "sequence"],
      palette: false,
      max_edit_regions: 4,
      max_input_images: 10,
    },
    input_limits: VENDOR_E_IMAGEN_CAPABILITY,
    prices: [perImage(30_000n)],
  },
  {
    id: "vendorE-image-2",
    family: "vendorE",
    kind: "image",
    capabilities: IMAGE_CREATION,
    created: 1_748_736_000,
    description: "Previous vendorE generation: one or two images, basic aspects.",
    constraints: {
      counts: [1, 2],
      canvas_tiers: ["1K", "2K"],
      canvas_aspects: BASIC_ASPECTS,
      seed: true,
      negative_prompt: false,
      enhance_prompt: [],
      reasoning: [],
      output_relationships: ["independent"],
      palette: false,
      max_edit_regions: 0,
      max_input_images: 4,
    },
    input_limits: NO_PUBLISHED_LIMITS,
    prices: [perImage(20_000n)],
  },
  {
    id: "image-01-live",
    family: "vendorA",
    kind: "image",
    capabilities: IMAGE_CREATION,
    created: 1_751_328_000,
    description: "Fast illustration model at 2K with a single reference image.",
    constraints: {
      counts: [1, 2, 3, 4],
      canvas_tiers: ["2K"],
      canvas_aspects: WIDE_ASPECTS,
      seed: false,
      negative_prompt: false,
      enhance_prompt: [true, false],
      reasoning: [],
      output_relationships: ["independent"],
      palette: false,
      max_edit_regions: 0,
      max_input_images: 1,
    },
    input_limits: VENDOR_A_IMAGE,
    prices: [perImage(10_000n)],
  },
  {
    id: "vendorC2.7-image-pro",
    family: "vendorC",
    kind: "image",
    capabilities: IMAGE_CREATION,
    created: 1_759_276_800,
    description: "High-fidelity 2K and 4K model with negative prompts, related sets and up to eight edit regions.",
    constraints: {
      counts: [1, 2, 4],
      canvas_tiers: ["2K", "4K"],
      // Wan 2.7 renders 4K from text alone; with input images or as a set, 2K at most.
      canvas_tiers_with_inputs: ["2K"],
      canvas_aspects: [...COMMON_ASPECTS, "21:9"],
      seed: true,
      negative_prompt: true,
      // Wan 2.7's image call has no prompt-rewriting field.
      enhance_prompt: [],
      reasoning: [true, false],
      output_relationships: ["independent", "sequence"],
      palette: false,
      max_edit_regions: 8,
      max_input_images: 4,
    },
    input_limits: VENDOR_C_WAN27_IMAGE,
    prices: [perImage(50_000n), perImage(90_000n, "4K")],
  },
  {
    id: "vendorC2.7-image",
    family: "vendorC",
    kind: "image",
    capabilities: IMAGE_CREATION,
    created: 1_759_276_800,
    description: "Standard vendorC image model with negative prompts and a single edit region.",
    constraints: {
      counts: [1, 2, 4],
      canvas_tiers: ["1K", "2K"],
      canvas_aspects: COMMON_ASPECTS,
      seed: true,
      negative_prompt: true,
      enhance_prompt: [],
      reasoning: [],
      output_relationships: ["independent"],
      palette: false,
      max_edit_regions: 1,
      max_input_images: 3,
    },
    input_limits: VENDOR_C_WAN27_IMAGE,
    prices: [perImage(25_000n)],
  },
  {
    id: "vendorF-image-3.0-pro",
    family: "vendorF",
    kind: "image",
    capabilities: IMAGE_CREATION,
    created: 1_761_955_200,
    description: "Always-reasoning vendorF flagship: 4K, palettes, related sets and region edits.",
    constraints: {
      counts: [1, 2, 3, 4],
      canvas_tiers: ["2K", "4K"],
      canvas_aspects: WIDE_ASPECTS,
      seed: true,
      negative_prompt: false,
      enhance_prompt: [true, false],
      reasoning: [true],
      output_relationships: ["independent", "sequence"],
      palette: true,
      max_edit_regions: 4,
      max_input_images: 6,
    },
    input_limits: NO_PUBLISHED_LIMITS,
    prices: [perImage(45_000n), perImage(75_000n, "4K")],
  },
  {
    id: "vendorF-image-3.0",
    family: "vendorF",
    kind: "image",
    capabilities: IMAGE_CREATION,
    created: 1_761_955_200,
    description: "Everyday vendorF model with palettes, up to four references.",
    constraints: {
      counts: [1, 2, 3, 4],
      canvas_tiers: ["1K", "2K"],
      canvas_aspects: COMMON_ASPECTS,
      seed: true,
      negative_prompt: false,
      enhance_prompt: [true, false],
      reasoning: [],
      output_relationships: ["independent"],
      palette: true,
      max_edit_regions: 0,
      max_input_images: 4,
    },
    input_limits: NO_PUBLISHED_LIMITS,
    prices: [perImage(30_000n)],
  },
  {
    id: "vendorF-image-2.0-pro",
    family: "vendorF",
    kind: "image",
    capabilities: IMAGE_CREATION,
    created: 1_743_465_600,
    description: "Single-image 2K model with negative prompts and two edit regions.",
    constraints: {
      counts: [1],
      canvas_tiers: ["2K"],
      canvas_aspects: BASIC_ASPECTS,
      seed: false,
      negative_prompt: true,
      enhance_prompt: [],
      reasoning: [],
      output_relationships: ["independent"],
      palette: false,
      max_edit_regions: 2,
      max_input_images: 2,
    },
    input_limits: NO_PUBLISHED_LIMITS,
    prices: [perImage(35_000n)],
  },
  {
    id: "vendorF-image-2.0",
    family: "vendorF",
    kind: "image",
    capabilities: IMAGE_CREATION,
    created: 1_743_465_600,
    description: "Low-cost single-image model with seeds, one reference.",
    constraints: {
      counts: [1],
      canvas_tiers: ["1K", "2K"],
      canvas_aspects: BASIC_ASPECTS,
      seed: true,
      negative_prompt: false,
      enhance_prompt: [],
      reasoning: [],
      output_relationships: ["independent"],
      palette: false,
      max_edit_regions: 0,
      max_input_images: 1,
    },
    input_limits: NO_PUBLISHED_LIMITS,
    prices: [perImage(15_000n)],
  },
];
