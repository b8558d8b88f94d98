import { z } from "zod";
import { failure, invalidRequest, zodFailures } from "../../core/index.js";

// Keywords zod emits that say nothing a client needs, removed because tools/list repeats them on every tool:
// the 300-character pattern beside every `format: date-time`, the ±(2^53 − 1) bounds of every integer,
// `propertyNames: {type: "string"}` on every record (JSON keys are strings anyway), and what an enum or a
// non-blank pattern already says.
function withoutNoise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNoise);
  if (node === null || typeof node !== "object") return node;
  const record = node as Record<string, unknown>;
  const entries = Object.entries(record).filter(([key, value]) => {
    if (key === "pattern" && record.format === "date-time") return false;
    if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) return false;
    if (key === "propertyNames" && JSON.stringify(value) === '{"type":"string"}') return false;
    // An enum of strings says its type; a `\S` pattern says a string is not empty.
    if (key === "type" && value === "string" && Array.isArray(record.enum) && record.enum.every((v) => typeof v === "string")) return false;
    if (key === "minLength" && value === 1 && record.pattern === "\\S") return false;
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
    properties: { type: { enum: ["url", "artifact"] }, url: { type: "string" }, artifact_id: { type: "string" } },
    required: ["type"],
    additionalProperties: false,
  };
}

// The data-URI alternative of a media input keeps its type and loses its 75-character pattern: the field's
// description says a data URI is accepted, and core checks it.
function isDataUriString(node: unknown): boolean {
  const n = node as Node | null;
  return n !== null && typeof n === "object" && n.type === "string" && typeof n.pattern === "string" && n.pattern.startsWith("^data:");
}

function compactMediaInputs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactMediaInputs);
  if (node === null || typeof node !== "object") return node;
  if (isDataUriString(node)) return { type: "string" };
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
