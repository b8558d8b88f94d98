import { z } from "zod";
import { failure, invalidRequest, zodFailures } from "../../core/index.js";

// Keywords zod emits that say nothing a client needs, removed because tools/list repeats them on every tool:
// the 300-character pattern beside every `format: date-time`, the ±(2^53 − 1) bounds of every integer, and
// `propertyNames: {type: "string"}` on every record (JSON keys are strings anyway).
function withoutNoise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNoise);
  if (node === null || typeof node !== "object") return node;
  const record = node as Record<string, unknown>;
  const entries = Object.entries(record).filter(([key, value]) => {
    if (key === "pattern" && record.format === "date-time") return false;
    if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) return false;
    if (key === "propertyNames" && JSON.stringify(value) === '{"type":"string"}') return false;
    return true;
  });
  return Object.fromEntries(entries.map(([key, value]) => [key, withoutNoise(value)]));
}

type Node = Record<string, unknown>;

function variantTag(node: unknown): unknown {
  return ((node as { properties?: { type?: { const?: unknown } } } | null)?.properties?.type?.const);
}

// A media input is {type: "url", url} or {type: "artifact", artifact_id}: zod writes that as a oneOf of two closed
// objects (about 550 bytes, twenty times in tools/list). It is advertised as one object with both fields, which
// OpenAI's strict mode and Gemini accept where they refuse oneOf; core still validates the exact shape and names
// the field it refuses.
function compactMediaInput(node: Node): Node | null {
  const variants = node.oneOf;
  if (!Array.isArray(variants) || variants.length !== 2 || variantTag(variants[0]) !== "url" || variantTag(variants[1]) !== "artifact") return null;
  const { oneOf: _variants, ...rest } = node;
  return {
    ...rest,
    type: "object",
    properties: {
      type: { enum: ["url", "artifact"] },
      url: { type: "string", description: "With type url." },
      artifact_id: { type: "string", description: "With type artifact." },
    },
    required: ["type"],
    additionalProperties: false,
  };
}

function compactMediaInputs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactMediaInputs);
  if (node === null || typeof node !== "object") return node;
  const compact = compactMediaInput(node as Node);
  if (compact) return compact;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, compactMediaInputs(value)]));
}

// JSON Schema 2020-12 (MCP's default dialect) of a zod schema, as tools/list advertises it.
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  delete generated.$schema;
  return compactMediaInputs(withoutNoise(generated)) as Record<string, unknown>;
}

// Arguments of the tools that are not capabilities, refused in REST's vocabulary with `param` pointing into them.
export function parseArguments<S extends z.ZodType>(schema: S, args: unknown): z.infer<S> {
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw invalidRequest([failure([], "the arguments must be a JSON object")]);
  }
  const parsed = schema.safeParse(args);
  if (!parsed.success) throw invalidRequest(zodFailures(parsed.error));
  return parsed.data;
}
