// Reading the capability's JSON Schema (the catalog card's input_schema, generated from the zod schema the API
// validates with) into the kind of control each field gets, and its bounds into words.

// The parts of JSON Schema's vocabulary the form reads.
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: boolean | JsonSchema;
}

export type FieldKind =
  | { kind: "media" }
  | { kind: "media-list" }
  | { kind: "enum"; values: unknown[] }
  | { kind: "boolean"; nullable: boolean }
  | { kind: "const"; value: unknown }
  | { kind: "number"; integer: boolean }
  | { kind: "text"; multiline: boolean }
  | { kind: "mixed"; alternatives: string[] }
  | { kind: "object"; properties: Record<string, JsonSchema>; required: string[] }
  | { kind: "object-list"; item: JsonSchema }
  | { kind: "json" };

const LONG_TEXT = /prompt|input|lyrics|instruction|text/;

// A media input is {type: "url", url} or {type: "artifact", artifact_id}, or also a data URI where the field takes
// one (images and audio; not video).
export function isMediaInput(schema: JsonSchema): boolean {
  const shapes = (alternatives: JsonSchema[] | undefined) => (alternatives ?? []).some((shape) => ["url", "artifact"].includes(String(shape.properties?.type?.const)));
  return shapes(schema.oneOf) || (schema.anyOf ?? []).some((alternative) => shapes(alternative.oneOf));
}

function types(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

export function fieldKind(name: string, schema: JsonSchema): FieldKind {
  if (isMediaInput(schema)) return { kind: "media" };
  if (schema.const !== undefined) return { kind: "const", value: schema.const };
  if (schema.enum) return { kind: "enum", values: schema.enum };
  const t = types(schema);
  if (t.includes("boolean")) return { kind: "boolean", nullable: t.includes("null") };
  if (t.includes("integer") || t.includes("number")) return { kind: "number", integer: !t.includes("number") };
  if (t.includes("string")) return { kind: "text", multiline: LONG_TEXT.test(name) && schema.pattern === undefined };
  if (schema.anyOf && schema.anyOf.every((a) => a.const !== undefined || ["integer", "number", "string"].includes(String(a.type)))) {
    return { kind: "mixed", alternatives: schema.anyOf.map((a) => (a.const !== undefined ? String(a.const) : String(a.type))) };
  }
  if (t.includes("array") && schema.items) {
    if (isMediaInput(schema.items)) return { kind: "media-list" };
    if (schema.items.properties && schema.items.additionalProperties === false) return { kind: "object-list", item: schema.items };
  }
  if (t.includes("object") && schema.properties && schema.additionalProperties === false) {
    return { kind: "object", properties: schema.properties, required: schema.required ?? [] };
  }
  return { kind: "json" };
}

// The kind of media a field takes, from its name (image, images, first_frame, source_video, driving_audio,
// sample): what a file picker offers, and which results can be handed to it.
export function mediaKindOf(name: string): "image" | "video" | "audio" | null {
  if (/image|frame/.test(name)) return "image";
  if (/video/.test(name)) return "video";
  if (/audio|sample|voice/.test(name)) return "audio";
  return null;
}

// What the request asks for in words, and the media it works on: the fields a form shows first.
export const LEAD_TEXT = ["prompt", "input", "instruction", "lyrics"];

export function isLead(name: string, schema: JsonSchema): boolean {
  const kind = fieldKind(name, schema);
  if (kind.kind === "media" || kind.kind === "media-list") return true;
  if (kind.kind === "object-list") return Object.values(kind.item.properties ?? {}).some(isMediaInput);
  return kind.kind === "text" && LEAD_TEXT.includes(name);
}

// "1 to 4 · default 1", "at most 4000 characters"…: the schema's bounds as the form's hint.
export function boundsText(schema: JsonSchema): string {
  const parts: string[] = [];
  const low = schema.minimum ?? schema.exclusiveMinimum;
  const high = schema.maximum ?? schema.exclusiveMaximum;
  const huge = (n: number | undefined) => n !== undefined && Math.abs(n) >= 2 ** 31;
  if (low !== undefined && high !== undefined && !huge(high)) {
    parts.push(`${schema.exclusiveMinimum !== undefined ? "more than " : ""}${low} to ${high}`);
  } else if (low !== undefined) parts.push(schema.exclusiveMinimum !== undefined ? `more than ${low}` : `at least ${low}`);
  else if (high !== undefined && !huge(high)) parts.push(`at most ${high}`);
  if (schema.minLength !== undefined && schema.maxLength !== undefined) parts.push(`${schema.minLength} to ${schema.maxLength} characters`);
  else if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  if (schema.minItems !== undefined || schema.maxItems !== undefined) {
    parts.push(`${schema.minItems ?? 0} to ${schema.maxItems ?? "any number of"} entries`);
  }
  // An object's default (a canvas's) is its fields' defaults, each said at its field.
  if (schema.default !== undefined && typeof schema.default !== "object") parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(" · ");
}

export function pointerOf(path: readonly (string | number)[]): string {
  return path.map((part) => `/${String(part).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

export function fieldId(path: readonly (string | number)[]): string {
  return `field${pointerOf(path)}`;
}

export function humanName(name: string): string {
  const words = name.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// A copy of `value` with the entry at `path` replaced; undefined removes it, and emptied objects go with it.
export function setAt(value: unknown, path: readonly (string | number)[], next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (typeof head === "number") {
    const list = Array.isArray(value) ? [...(value as unknown[])] : [];
    list[head] = setAt(list[head], rest, next);
    return list;
  }
  const object = { ...((value && typeof value === "object" && !Array.isArray(value) ? value : {}) as Record<string, unknown>) };
  const child = setAt(object[head], rest, next);
  if (child === undefined || (child !== null && typeof child === "object" && !Array.isArray(child) && Object.keys(child).length === 0)) {
    delete object[head];
  } else object[head] = child;
  return object;
}
