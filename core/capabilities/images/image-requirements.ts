import type { ImageModel } from "../../catalog/image-models.js";
import type { EditRegion, ImageOptionInput } from "../../contracts/image-options.js";
import type { Requirement } from "../../selection/select.js";

// The model-specific controls of the image creation endpoints, as selection requirements. Count, canvas and
// output relationship always apply (their defaults are offered by every model); the others only when set.

function offered<T>(param: string, code: string, received: T, supported: (m: ImageModel) => readonly T[]): Requirement<ImageModel> {
  return {
    param,
    check: (m) =>
      supported(m).includes(received)
        ? null
        : { code, message: `${param.slice(1)} ${JSON.stringify(received)} is not offered`, received, supported: supported(m) },
  };
}

function flag(param: string, code: string, received: unknown, has: (m: ImageModel) => boolean): Requirement<ImageModel> {
  return {
    param,
    check: (m) => (has(m) ? null : { code, message: `${param.slice(1)} is not honoured`, received, supported: false }),
  };
}

function atMost(param: string, code: string, received: number, max: (m: ImageModel) => number, what: string): Requirement<ImageModel> {
  return {
    param,
    check: (m) => (received <= max(m) ? null : { code, message: `at most ${max(m)} ${what}`, received, supported: max(m) }),
  };
}

export function imageOptionRequirements(input: ImageOptionInput): Requirement<ImageModel>[] {
  const requirements = [
    offered("/count", "unsupported_count", input.count, (m) => m.constraints.counts),
    offered("/canvas/tier", "unsupported_canvas_tier", input.canvas.tier, (m) => m.constraints.canvas_tiers),
    offered("/canvas/aspect", "unsupported_aspect_ratio", input.canvas.aspect, (m) => m.constraints.canvas_aspects),
  ];
  if (input.seed !== undefined) {
    requirements.push(flag("/seed", "unsupported_seed", input.seed, (m) => m.constraints.seed));
  }
  if (input.negative_prompt !== undefined) {
    requirements.push(flag("/negative_prompt", "unsupported_negative_prompt", input.negative_prompt, (m) => m.constraints.negative_prompt));
  }
  if (typeof input.enhance_prompt === "boolean") {
    requirements.push(offered("/enhance_prompt", "unsupported_enhance_prompt", input.enhance_prompt, (m) => m.constraints.enhance_prompt));
  }
  if (input.palette !== undefined) {
    requirements.push(flag("/palette", "unsupported_palette", input.palette, (m) => m.constraints.palette));
  }
  return requirements;
}

// A canvas asked with input images, or for a related set, where some models offer fewer tiers than from text alone.
export function tierWithInputsRequirement(tier: string): Requirement<ImageModel> {
  return offered("/canvas/tier", "unsupported_canvas_tier", tier, (m) => m.constraints.canvas_tiers_with_inputs ?? m.constraints.canvas_tiers);
}

export function outputRelationshipRequirement(relationship: string): Requirement<ImageModel> {
  return offered("/output_relationship", "unsupported_output_relationship", relationship, (m) => m.constraints.output_relationships);
}

export function reasoningRequirements(reasoning: boolean | null | undefined): Requirement<ImageModel>[] {
  if (typeof reasoning !== "boolean") return [];
  return [offered("/reasoning", "unsupported_reasoning", reasoning, (m) => m.constraints.reasoning)];
}

export function inputImagesRequirement(imageCount: number): Requirement<ImageModel> {
  return atMost("/images", "unsupported_image_count", imageCount, (m) => m.constraints.max_input_images, "input images");
}

export function editRegionRequirements(regions: readonly EditRegion[] | undefined): Requirement<ImageModel>[] {
  if (regions === undefined) return [];
  return [atMost("/edit_regions", "unsupported_edit_regions", regions.length, (m) => m.constraints.max_edit_regions, "edit regions")];
}
