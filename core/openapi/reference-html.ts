// HTML building blocks of the reference page, and the parts of the OpenAPI document it reads (typed loosely: the
// page walks the generated JSON, whatever component it meets).

export type JsonSchema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
};

export interface MediaType {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { $ref?: string; value?: unknown; summary?: string }>;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  schema: JsonSchema;
  example?: string | number;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { $ref: string }>;
  content?: Record<string, MediaType>;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { $ref: string } | { required: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
  "x-api-key-area"?: string;
  "x-capability"?: string;
  "x-mcp-tool"?: string;
}

export interface ReferenceDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  // A callback is described like an operation, but is no route of an area: it has no tags.
  webhooks: Record<string, Record<string, Omit<OperationObject, "tags">>>;
  components: {
    securitySchemes: Record<string, { description?: string }>;
    headers: Record<string, { description: string; schema: JsonSchema }>;
    examples: Record<string, { summary: string; value: unknown; "x-http-status": number }>;
    schemas: Record<string, JsonSchema>;
    requestBodies: Record<string, { description?: string; required: boolean; content: Record<string, MediaType> }>;
  };
}

export interface DocumentedOperation {
  method: string;
  path: string;
  operation: OperationObject;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

// Backticked words of the document's descriptions as code; everything else escaped.
export function prose(text: string | undefined): string {
  return escapeHtml(text ?? "").replace(/`([^`]+)`/g, "<code>$1</code>");
}

// A name usable in an id attribute and a fragment (operationIds and codes already are; paths are not).
export function anchor(...parts: string[]): string {
  return parts.join("-").replace(/[^A-Za-z0-9_-]+/g, "-");
}

export const schemaAnchor = (name: string) => anchor("schema", name);
export const errorAnchor = (code: string) => anchor("error", code);
export const tagAnchor = (tag: string) => anchor("tag", tag);

// A scrollable block: focusable so a keyboard can scroll it, named for screen readers.
export function codeBlock(label: string, code: string, attributes: Record<string, string> = {}): string {
  const extra = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join("");
  return `<pre tabindex="0" aria-label="${escapeHtml(label)}"${extra}><code>${escapeHtml(code)}</code></pre>`;
}

export function table(label: string, headings: string[], rows: string[][]): string {
  if (rows.length === 0) return "";
  const head = headings.map((h) => `<th scope="col">${h}</th>`).join("");
  // data-label names each cell's column where a narrow window shows a row as a card.
  const body = rows.map((cells) => `<tr>${cells.map((c, i) => `<td data-label="${headings[i] ?? ""}">${c}</td>`).join("")}</tr>`).join("\n");
  return `<div class="scroll" role="region" tabindex="0" aria-label="${escapeHtml(label)}"><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

export const refName = (ref: string) => ref.split("/").pop() as string;

export function documentedOperations(document: ReferenceDocument): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}
