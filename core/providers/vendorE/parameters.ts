import type { ImageOptionInput } from "../../contracts/image-options.js";

// The `parameters` of a vendorE predict call that every image request shares (docs/providers/vendorE.md).
export function predictParameters(input: ImageOptionInput, aspect: string, relationship: "independent" | "sequence") {
  return {
    sampleCount: input.count,
    aspectRatio: aspect,
    sampleImageSize: input.canvas.tier,
    outputRelationship: relationship === "sequence" ? "SEQUENCE" : "INDEPENDENT",
    outputOptions: { mimeType: "image/png" },
    // vendorE rewrites prompts unless told not to; SPEC.md keeps the prompt as written unless asked.
    enhancePrompt: input.enhance_prompt === true,
    ...(input.seed !== undefined ? { seed: input.seed } : {}),
    ...(input.palette ? { colorPalette: input.palette.map((item) => ({ hex: item.color, weight: item.weight })) } : {}),
  };
}
