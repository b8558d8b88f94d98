import type { ToolAnnotations } from "@modelcontextprotocol/server";
import { z } from "zod";
import { scopeFor, type Area, type GeneratedTool, type Operation, type Scope, type ToolLimits } from "../../core/index.js";
import { jsonSchemaOf, parseArguments } from "./json-schema.js";
import type { ToolCall, ToolDefinition, ToolOutcome } from "./types.js";

// An operation whose tool is generated from its row: an area of its own, and path parameters, query and body that
// are each an object of fields.
interface MirroredRow extends Pick<Operation, "method"> {
  area: Area;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: { schema: z.ZodObject };
  tool: GeneratedTool;
}

type ShapeOf<S> = S extends z.ZodObject<infer Shape> ? Shape : Record<never, never>;

// The tool's arguments: the row's path parameters, query fields and body fields side by side, with their rules and
// texts, and nothing else.
type ArgumentsOf<Row extends MirroredRow> = z.ZodObject<
  ShapeOf<Row["params"]> & ShapeOf<Row["query"]> & ShapeOf<NonNullable<Row["body"]>["schema"]>,
  z.core.$strict
>;

function argumentsOf<Row extends MirroredRow>(row: Row): ArgumentsOf<Row> {
  const fields = { ...row.params?.shape, ...row.query?.shape, ...row.body?.schema.shape };
  return z.object(fields).strict() as ArgumentsOf<Row>;
}

// What a generated tool does once its arguments are checked: the use case, answered as a tool answers.
export interface MirroredToolAnswer<Row extends MirroredRow> {
  annotations: ToolAnnotations;
  // Scopes that grant the tool besides the one its operation's area and method stand for.
  alsoGrantedBy?: readonly Scope[];
  run(input: z.output<ArgumentsOf<Row>>, call: ToolCall): Promise<ToolOutcome>;
}

// The tool of an operation whose arguments are the operation's own: its name and texts from the row, its input
// schema from the row's schemas (arguments refused as REST refuses the same fields), and the scope the operation's
// area and method stand for (a read for GET, a write otherwise).
export function mirroredTool<Row extends MirroredRow>(row: Row, limits: ToolLimits, answer: MirroredToolAnswer<Row>): ToolDefinition {
  const input = argumentsOf(row);
  const { name, title, description } = row.tool;
  return {
    name,
    title,
    description: typeof description === "string" ? description : description(limits),
    inputSchema: jsonSchemaOf(input, "input"),
    annotations: answer.annotations,
    scopes: [scopeFor(row.area, row.method === "GET" ? "read" : "write"), ...(answer.alsoGrantedBy ?? [])],
    run: async (args, call) => answer.run(parseArguments(input, args), call),
  };
}
