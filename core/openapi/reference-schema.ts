import { escapeHtml, prose, refName, schemaAnchor, table, type JsonSchema } from "./reference-html.js";

// A JSON Schema as a table of fields: one row per property, nested objects and array items flattened into dotted
// paths (`references[].media`), variants of a union listed under the field they belong to. A named component is
// linked, not repeated: the page's Objects section has its own table.

const MAX_DEPTH = 5;

const literal = (value: unknown) => `<code>${escapeHtml(JSON.stringify(value))}</code>`;

function branches(schema: JsonSchema): JsonSchema[] {
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
}

export function typeOf(schema: JsonSchema): string {
  if (schema.$ref) return `<a href="#${schemaAnchor(refName(schema.$ref))}">${escapeHtml(refName(schema.$ref))}</a>`;
  if (schema.const !== undefined) return literal(schema.const);
  const union = branches(schema);
  if (union.length > 0) return [...new Set(union.map(typeOf))].join(" or ");
  if (schema.allOf?.length) return schema.allOf.map(typeOf).join(" and ");
  const types = [schema.type ?? (schema.properties ? "object" : "any")].flat();
  return types
    .map((type) => {
      if (type === "array") return `array of ${schema.items ? typeOf(schema.items) : "any"}`;
      if (type === "object" && !schema.properties && typeof schema.additionalProperties === "object") {
        return `map of ${typeOf(schema.additionalProperties)}`;
      }
      return escapeHtml(type);
    })
    .join(" or ");
}

function range(min: unknown, max: unknown, unit: string): string {
  const plural = (n: unknown) => `${String(n)} ${unit}${n === 1 ? "" : "s"}`;
  if (typeof min === "number" && typeof max === "number") return min === max ? plural(min) : `${min} to ${plural(max)}`;
  if (typeof min === "number") return min > 0 ? `at least ${plural(min)}` : "";
  if (typeof max === "number") return `at most ${plural(max)}`;
  return "";
}

// Bounds, enums, defaults and formats, as a reader checks a value against them.
export function constraintsOf(schema: JsonSchema): string[] {
  const notes: string[] = [];
  const add = <T,>(keyword: string, text: (value: T) => string) => {
    if (schema[keyword] !== undefined) notes.push(text(schema[keyword] as T));
  };
  add("enum", (values: unknown[]) => `one of ${values.map(literal).join(", ")}`);
  add("default", (value: unknown) => `default ${literal(value)}`);
  add("minimum", (value: number) => `≥ ${value}`);
  add("exclusiveMinimum", (value: number) => `&gt; ${value}`);
  add("maximum", (value: number) => (value >= Number.MAX_SAFE_INTEGER ? "" : `≤ ${value}`));
  add("exclusiveMaximum", (value: number) => `&lt; ${value}`);
  notes.push(range(schema.minLength, schema.maxLength, "character"), range(schema.minItems, schema.maxItems, "item"));
  add("pattern", (value: string) => `matches <code>${escapeHtml(value)}</code>`);
  add("format", (value: string) => `format ${escapeHtml(value)}`);
  add("examples", (values: unknown[]) => `e.g. ${values.map(literal).join(", ")}`);
  return notes.filter(Boolean);
}

// A description and its notes as one text: the notes follow the description's sentence.
export function details(description: string, notes: string[]): string {
  const list = notes.filter(Boolean).join("; ");
  if (!description || !list) return description || list;
  return /[.!?]$/.test(description) ? `${description} ${list.charAt(0).toUpperCase()}${list.slice(1)}.` : `${description}; ${list}`;
}

// Rows of [field, type, required, details].
export function fieldRows(schema: JsonSchema, prefix = "", depth = 0, note = ""): string[][] {
  if (depth > MAX_DEPTH || schema.$ref) return [];
  const rows: string[][] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    const description = prose(property.description ?? branches(property).find((b) => b.description)?.description);
    const text = details([note, description].filter(Boolean).join(": "), constraintsOf(property));
    rows.push([`<code>${escapeHtml(path)}</code>`, typeOf(property), required.has(name) ? "required" : "optional", text]);
    rows.push(...nestedRows(property, path, depth + 1));
  }
  return rows;
}

function nestedRows(schema: JsonSchema, path: string, depth: number): string[][] {
  const rows = fieldRows(schema, `${path}.`, depth);
  if (schema.items) rows.push(...fieldRows(schema.items, `${path}[].`, depth), ...unionRows(schema.items, `${path}[]`, depth));
  rows.push(...unionRows(schema, path, depth));
  return rows;
}

// A union's object variants, each row saying which variant it belongs to (by its constant field, where it has one).
function unionRows(schema: JsonSchema, path: string, depth: number): string[][] {
  return branches(schema).flatMap((branch) => {
    const discriminator = Object.entries(branch.properties ?? {}).find(([, p]) => p.const !== undefined);
    const note = discriminator ? `when <code>${escapeHtml(discriminator[0])}</code> is ${literal(discriminator[1].const)}` : "";
    return [...fieldRows(branch, `${path}.`, depth, note), ...unionRows(branch, path, depth + 1)];
  });
}

export function fieldTable(label: string, schema: JsonSchema): string {
  return table(label, ["Field", "Type", "Required", "Details"], fieldRows(schema));
}
