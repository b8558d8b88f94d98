import { z } from "zod";
import { textOfLength } from "./text.js";

// SPEC.md "Image option fields", "Canvas (images)", "Palette item" and "Edit region": the wire shapes shared by
// the three image creation endpoints. What a model can honour is checked later, by selection.

// SPEC.md gives the image prompt and negative prompt no bound; a model's published limit is its own (checked at
// selection, core/catalog/vendors/<family>/input-limits.ts), and these are the service's, whatever the model: the
// video prompt's 20000 and the video negative prompt's 2000 (docs/decisions.md). JSON Schema's maxLength counts
// code points, as these do.
export const IMAGE_PROMPT_MAX = 20_000;
export const IMAGE_NEGATIVE_PROMPT_MAX = 2_000;

export const imagePromptSchema = textOfLength(1, IMAGE_PROMPT_MAX)
  .regex(/\S/, "must contain at least one non-whitespace character")
  .meta({ maxLength: IMAGE_PROMPT_MAX })
  .describe("What to show (for an edit: the change to make).");

export const CANVAS_DEFAULT_TIER = "2K";

// Tier and aspect are open strings here: which values a model offers is catalog data, so an unknown tier is
// an `unsupported_option` quoting the supported ones, not a schema failure.
export function canvasSchema(defaultAspect: string) {
  return z
    .object({
      type: z.literal("preset").default("preset").describe("Always preset."),
      tier: z
        .string()
        .regex(/^[1-9]\d*K$/, "must be a quality tier such as 1K, 2K or 4K")
        .default(CANVAS_DEFAULT_TIER)
        .describe("Quality tier such as 1K, 2K, 4K."),
      aspect: z
        .string()
        .regex(/^(source|[1-9]\d*:[1-9]\d*)$/, "must be a ratio such as 16:9, or source")
        .default(defaultAspect)
        .describe("Ratio such as 16:9, or source: an input image's ratio."),
    })
    .strict()
    .default({ type: "preset", tier: CANVAS_DEFAULT_TIER, aspect: defaultAspect })
    .describe("Output size as tier and ratio; real pixels may differ.");
}

export type Canvas = z.infer<ReturnType<typeof canvasSchema>>;

const WEIGHT_SCALE = 10_000;

// Weights are compared in integer ten-thousandths, so 0.1 + 0.2 + 0.7 sums to exactly 10000 and no float
// rounding decides whether a palette is accepted. A weight finer than 0.0001 cannot be compared that way.
function tenThousandths(weight: number): number | null {
  const scaled = weight * WEIGHT_SCALE;
  const rounded = Math.round(scaled);
  return Math.abs(scaled - rounded) < 1e-6 ? rounded : null;
}

export const paletteItemSchema = z
  .object({
    color: z.string().regex(/^#[0-9A-Fa-f]{6}$/, "must be a hex color such as #1A2B3C").describe("Hex color, e.g. #1A2B3C."),
    weight: z
      .number()
      .gt(0)
      .max(1)
      .refine((w) => tenThousandths(w) !== null, "must have at most four decimal places")
      .describe("Share of the palette, at most 4 decimals."),
  })
  .strict();

export const paletteSchema = z
  .array(paletteItemSchema)
  .min(3, "must have at least 3 colors")
  .max(10, "must have at most 10 colors")
  .superRefine((palette, ctx) => {
    const total = palette.reduce((sum, item) => sum + (tenThousandths(item.weight) ?? 0), 0);
    if (total !== WEIGHT_SCALE) {
      ctx.addIssue({ code: "custom", message: `weights must sum to exactly 1.0000 (they sum to ${(total / WEIGHT_SCALE).toFixed(4)})` });
    }
  })
  .describe("Colors to favour; weights sum to exactly 1.0000.");

export type PaletteItem = z.infer<typeof paletteItemSchema>;

// Tolerance for x + width and y + height: 0.7 + 0.3 must fit even though the float sum is not exactly 1.
const EDGE_EPSILON = 1e-9;

export const editRegionSchema = z
  .object({
    image_index: z.number().int().min(0).describe("Index into images (0 is the base)."),
    x: z.number().min(0).max(1).describe("Left edge, fraction of width."),
    y: z.number().min(0).max(1).describe("Top edge, fraction of height."),
    width: z.number().gt(0).max(1).describe("Fraction of width; x + width <= 1."),
    height: z.number().gt(0).max(1).describe("Fraction of height; y + height <= 1."),
  })
  .strict()
  .superRefine((region, ctx) => {
    if (region.x + region.width > 1 + EDGE_EPSILON) {
      ctx.addIssue({ code: "custom", path: ["width"], message: "x + width must be at most 1" });
    }
    if (region.y + region.height > 1 + EDGE_EPSILON) {
      ctx.addIssue({ code: "custom", path: ["height"], message: "y + height must be at most 1" });
    }
  });

export type EditRegion = z.infer<typeof editRegionSchema>;

export const OUTPUT_RELATIONSHIPS = ["independent", "sequence"] as const;
export const outputRelationshipSchema = z
  .enum(OUTPUT_RELATIONSHIPS)
  .default("independent")
  .describe("independent images or a related sequence.");

export const MAX_SEED = 2_147_483_647;

// The image option fields of SPEC.md, with the endpoint's canvas default and `model`, whose values (and so its
// description) differ per endpoint: each capability passes its own (core/capabilities/model-field.ts).
export function imageOptionFields<M extends z.ZodType>(defaultAspect: string, model: M) {
  return {
    prompt: imagePromptSchema,
    model,
    count: z
      .number()
      .int()
      .min(1)
      .max(4)
      .default(1)
      .describe("Images to make in one request; never split."),
    canvas: canvasSchema(defaultAspect),
    seed: z
      .number()
      .int()
      .min(0)
      .max(MAX_SEED)
      .optional()
      .describe("Seed for repeatable output."),
    negative_prompt: textOfLength(1, IMAGE_NEGATIVE_PROMPT_MAX)
      .meta({ maxLength: IMAGE_NEGATIVE_PROMPT_MAX })
      .optional()
      .describe("What the images must not show."),
    enhance_prompt: z
      .boolean()
      .nullable()
      .optional()
      .describe("Rewrite the prompt (true) or not; omit: as written."),
    palette: paletteSchema.optional(),
  };
}

export interface ImageOptionInput {
  prompt: string;
  model: string;
  count: number;
  canvas: Canvas;
  seed?: number | undefined;
  negative_prompt?: string | undefined;
  enhance_prompt?: boolean | null | undefined;
  palette?: PaletteItem[] | undefined;
}
