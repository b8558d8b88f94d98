import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, CAPABILITIES } from "../../core/index.js";
import { z } from "zod";

// The schemas as the capability table declares them (what OpenAPI publishes; MCP derives a compact form).
const jsonSchemaOf = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === "object" && !Array.isArray(value);

// Every property at every depth an agent fills in, as `/a/*/b` (`*` for array items), with its schema. Branches of
// anyOf/oneOf/allOf and $defs are walked too, so a media input's `url` or a reference's `kind` is reached.
function propertiesOf(schema: Schema, path = ""): { path: string; schema: Schema }[] {
  const found: { path: string; schema: Schema }[] = [];
  if (isSchema(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!isSchema(property)) continue;
      found.push({ path: `${path}/${name}`, schema: property }, ...propertiesOf(property, `${path}/${name}`));
    }
  }
  if (isSchema(schema.items)) found.push(...propertiesOf(schema.items, `${path}/*`));
  if (Array.isArray(schema.prefixItems)) schema.prefixItems.filter(isSchema).forEach((item, i) => found.push(...propertiesOf(item, `${path}/${i}`)));
  if (isSchema(schema.additionalProperties)) found.push(...propertiesOf(schema.additionalProperties, `${path}/*`));
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const branch of branches.filter(isSchema)) found.push(...propertiesOf(branch, path));
  }
  if (isSchema(schema.$defs)) {
    for (const [name, definition] of Object.entries(schema.$defs)) if (isSchema(definition)) found.push(...propertiesOf(definition, `#/$defs/${name}`));
  }
  return found;
}

const described = (schema: Schema) => typeof schema.description === "string" && schema.description.trim().length > 0;

describe("capability input descriptions", () => {
  it("describe every property of every task-creating capability, nested ones included", () => {
    const undescribed = CAPABILITIES.flatMap((capability) =>
      propertiesOf(jsonSchemaOf(capability.inputSchema, "input"))
        .filter((p) => !described(p.schema))
        .map((p) => `${capability.id} ${p.path}`),
    );
    expect(undescribed).toEqual([]);
  });

  it("name every model the capability accepts in the description of `model`", () => {
    const unnamed = CAPABILITIES.flatMap((capability) => {
      const properties = jsonSchemaOf(capability.inputSchema, "input").properties as Record<string, Schema>;
      const description = String(properties.model?.description ?? "");
      return capability.modelIds.filter((id) => !description.includes(id)).map((id) => `${capability.id}: ${id}`);
    });
    expect(unnamed).toEqual([]);
  });

  it("say that `model` is required exactly where the schema requires it", () => {
    for (const capability of CAPABILITIES) {
      const schema = jsonSchemaOf(capability.inputSchema, "input");
      const required = ((schema.required as string[] | undefined) ?? []).includes("model");
      const description = String((schema.properties as Record<string, Schema>).model?.description);
      expect({ capability: capability.id, says: description.startsWith("Required") }).toEqual({ capability: capability.id, says: required });
    }
  });

  it("reach OpenAPI with the same text", () => {
    const document = buildOpenApiDocument("https://api.example.com");
    const bodies = document.components.requestBodies as Record<string, { content: Record<string, { schema: Schema }> }>;
    for (const capability of CAPABILITIES) {
      const body = document.paths[capability.path]?.post as { requestBody: { $ref: string } };
      const request = bodies[body.requestBody.$ref.split("/").pop() as string]?.content["application/json"]?.schema as Schema;
      expect(propertiesOf(request).filter((p) => !described(p.schema)).map((p) => `${capability.id} ${p.path}`)).toEqual([]);
      const topLevel = (schema: Schema) =>
        Object.fromEntries(Object.entries(schema.properties as Record<string, Schema>).map(([name, p]) => [name, p.description]));
      expect(topLevel(request)).toEqual(topLevel(jsonSchemaOf(capability.inputSchema, "input")));
    }
  });
});
