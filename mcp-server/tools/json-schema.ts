import { z } from "zod";
import { failure, invalidRequest, zodFailures } from "../../core/index.js";

// zod spells every ISO date-time as `format: date-time` plus a 300-character pattern; the format says it all, and
// the task envelope appears in most tools' output schemas, so the patterns alone would add a fifth to tools/list.
function withoutDateTimePatterns(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDateTimePatterns);
  if (node === null || typeof node !== "object") return node;
  const entries = Object.entries(node).filter(([key]) => !(key === "pattern" && (node as { format?: unknown }).format === "date-time"));
  return Object.fromEntries(entries.map(([key, value]) => [key, withoutDateTimePatterns(value)]));
}

// JSON Schema 2020-12 (MCP's default dialect) of a zod schema, as tools/list advertises it.
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  delete generated.$schema;
  return withoutDateTimePatterns(generated) as Record<string, unknown>;
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
