import type { ImageOptionInput } from "../../contracts/image-options.js";

// The `parameters` of an Imagen predict call that every image request shares (docs/providers/vendorE.md).
export function predictParameters(input: ImageOptionInput, aspect: string, relationship: "independent" | "sequence") {
  return {
    sampleCount: input.count,
    aspectRatio: aspect,
    sampleImageSize: input.canvas.tier,
    outputOptions: { mimeType: "image/png" },
    // Imagen rewrites prompts unless told not to; SPEC.md keeps the prompt as written unless asked.
    enhancePrompt: input.enhance_prompt === true,
    // A withheld image comes back as a prediction saying why, instead of silently missing from the set.
    includeRaiReason: true,
    // The reference takes no seed while the invisible watermark is on.
    ...(input.seed !== undefined ? { seed: input.seed, addWatermark: false } : {}),
    // Not in the reference: sent only when the request asks for what the catalog offers (a related set, a
    // palette), so that every other request is exactly the vendor's.
    ...(relationship === "sequence" ? { outputRelationship: "SEQUENCE" } : {}),
    ...(input.palette ? { colorPalette: input.palette.map((item) => ({ hex: item.color, weight: item.weight })) } : {}),
  };
}
