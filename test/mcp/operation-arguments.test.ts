import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../core/index.js";
import { listedTools } from "../../mcp-server/tools/tool-report.js";

// The query tools that mirror a REST operation take its parameters, query and body fields with the same rules
// and the same texts: what tools/list advertises for them is what /v1/openapi.json documents.

type Schema = Record<string, unknown>;
type Parameter = { name: string; in: string; description: string; schema: Schema };

const document = buildOpenApiDocument("http://localhost") as unknown as {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { $ref: string } }>>;
  components: { requestBodies: Record<string, { content: { "application/json": { schema: { properties: Record<string, Schema> } } } }> };
};
const tools = new Map(listedTools().map((tool) => [tool.name, tool.inputSchema as { properties: Record<string, Schema> }]));

// A documented parameter as a tool property: its schema with its description beside it.
function documented(method: string, path: string): Record<string, Schema> {
  const operation = document.paths[path]![method]!;
  const fields: Record<string, Schema> = {};
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== "header") fields[parameter.name] = { ...parameter.schema, description: parameter.description };
  }
  const body = operation.requestBody && document.components.requestBodies[operation.requestBody.$ref.split("/").pop()!];
  Object.assign(fields, body?.content["application/json"].schema.properties);
  return fields;
}

function withoutType(schema: Schema): Schema {
  // An enum of strings is advertised to tools without its `type` (tools/list repeats it on every tool).
  const { type: _type, ...rest } = schema;
  return Array.isArray(schema.enum) ? rest : schema;
}

describe("query tools mirroring an operation", () => {
  it.each([
    ["svc.tasks.get", "get", "/v1/tasks/{task_id}", []],
    ["svc.tasks.list", "get", "/v1/tasks", ["idempotency_key"]],
    ["svc.tasks.cancel", "post", "/v1/tasks/{task_id}/cancel", []],
    ["svc.voices.list", "get", "/v1/voices", []],
  ] as const)("%s takes %s %s's fields as documented", (tool, method, path, restOnly) => {
    const properties = tools.get(tool)!.properties;
    for (const [name, schema] of Object.entries(documented(method, path))) {
      if ((restOnly as readonly string[]).includes(name)) continue;
      expect(withoutType(properties[name]!), `${tool}: ${name}`).toEqual(withoutType(schema));
    }
  });
});
