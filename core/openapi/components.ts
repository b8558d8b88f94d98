import { z } from "zod";

interface RequestBody {
  schema: z.ZodType;
  required: boolean;
  description: string;
  example?: unknown;
}

// The document's components, generated from zod: answers as component schemas (their output form; a registered
// schema nested in another becomes a $ref, never a copy) and request bodies as components/requestBodies (their
// input form). Request bodies stay out of components/schemas so that generators read a field with a default as
// optional to send (openapi-typescript makes such a field required in a shared schema).
export class DocumentComponents {
  private readonly outputs = z.registry<{ id: string }>();
  private readonly names = new Map<string, z.ZodType>();
  private readonly bodies = new Map<string, RequestBody>();

  schema(name: string, schema: z.ZodType): { $ref: string } {
    const known = this.names.get(name);
    if (known && known !== schema) throw new Error(`two schemas named ${name} in the OpenAPI document`);
    this.names.set(name, schema);
    this.outputs.add(schema, { id: name });
    return { $ref: `#/components/schemas/${name}` };
  }

  requestBody(name: string, body: RequestBody): { $ref: string } {
    const known = this.bodies.get(name);
    if (known && known.schema !== body.schema) throw new Error(`two request bodies named ${name} in the OpenAPI document`);
    this.bodies.set(name, body);
    return { $ref: `#/components/requestBodies/${name}` };
  }

  render(): { schemas: Record<string, unknown>; requestBodies: Record<string, unknown> } {
    const generated = z.toJSONSchema(this.outputs, {
      io: "output",
      unrepresentable: "any",
      target: "draft-2020-12",
      uri: (id) => `#/components/schemas/${id}`,
    }).schemas;
    const schemas = Object.entries(generated)
      .map(([name, schema]) => [name, withoutMeta(schema as Record<string, unknown>)] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    const requestBodies = [...this.bodies]
      .map(([name, body]) => {
        const schema = withoutMeta(z.toJSONSchema(body.schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>);
        const media = { schema, ...(body.example !== undefined ? { example: body.example } : {}) };
        return [name, { description: body.description, required: body.required, content: { "application/json": media } }] as const;
      })
      .sort(([a], [b]) => a.localeCompare(b));
    return { schemas: Object.fromEntries(schemas), requestBodies: Object.fromEntries(requestBodies) };
  }
}

function withoutMeta(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}
