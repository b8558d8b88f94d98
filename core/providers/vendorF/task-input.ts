import type { PixelSize } from "../../catalog/canvas.js";
import type { ImageOptionInput } from "../../contracts/image-options.js";

// The `input` fields of a vendorF image task that every image request shares (docs/providers/vendorF.md).
export function imageTaskFields(input: ImageOptionInput, size: PixelSize, relationship: "independent" | "sequence") {
  return {
    prompt: input.prompt,
    num_images: input.count,
    image_size: size,
    sequential: relationship === "sequence",
    // vendorF expands prompts when asked; SPEC.md keeps the prompt as written unless asked.
    enable_prompt_expansion: input.enhance_prompt === true,
    ...(input.seed !== undefined ? { seed: input.seed } : {}),
    ...(input.negative_prompt !== undefined ? { negative_prompt: input.negative_prompt } : {}),
    ...(input.palette ? { palette: input.palette.map((item) => ({ color: item.color, weight: item.weight })) } : {}),
  };
}
