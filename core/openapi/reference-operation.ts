import {
  anchor,
  codeBlock,
  errorAnchor,
  escapeHtml,
  prose,
  refName,
  schemaAnchor,
  table,
  type DocumentedOperation,
  type MediaType,
  type Parameter,
  type ReferenceDocument,
  type ResponseObject,
} from "./reference-html.js";
import { constraintsOf, details, fieldTable, typeOf } from "./reference-schema.js";
import { SCOPE_TABLE } from "../oauth/scopes.js";

// One operation of the reference page: what it does, who may call it, its parameters and body, a curl call and a
// JSON body built from the document's examples, and each answer with its example. Every example block carries
// data-example, data-operation and data-status, so a test can validate what the page shows against the document.

interface RequestBody {
  required: boolean;
  content: Record<string, MediaType>;
}

function requestBodyOf(document: ReferenceDocument, { operation }: DocumentedOperation): RequestBody | undefined {
  const body = operation.requestBody;
  if (!body) return undefined;
  return "$ref" in body ? document.components.requestBodies[refName(body.$ref)] : body;
}

// The first example of a media type (its `example`, or the first of its `examples`, resolved).
export function firstExample(document: ReferenceDocument, media: MediaType | undefined): { name: string; value: unknown } | undefined {
  if (!media) return undefined;
  if (media.example !== undefined) return { name: "example", value: media.example };
  const [name, example] = Object.entries(media.examples ?? {})[0] ?? [];
  if (!name || !example) return undefined;
  return { name, value: example.$ref ? document.components.examples[refName(example.$ref)]?.value : example.value };
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

// A curl call with the parameters' examples: path parameters filled in, required query parameters, the create's
// headers (Idempotency-Key, Prefer: wait) and the example body.
export function curlExample(document: ReferenceDocument, entry: DocumentedOperation): string {
  const { method, path, operation } = entry;
  const parameters = operation.parameters ?? [];
  const value = (p: Parameter) => String(p.example ?? `<${p.name}>`);
  let url = path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const parameter = parameters.find((p) => p.in === "path" && p.name === name);
    return parameter ? encodeURIComponent(value(parameter)) : `{${name}}`;
  });
  const query = parameters.filter((p) => p.in === "query" && p.required);
  if (query.length > 0) url += `?${query.map((p) => `${p.name}=${encodeURIComponent(value(p))}`).join("&")}`;
  const stream = Object.values(operation.responses).some((r) => r.content?.["text/event-stream"]);
  const lines = [`curl${stream ? " -N" : ""}${method === "GET" ? "" : ` -X ${method}`} ${shellQuote(`${document.servers[0]?.url ?? ""}${url}`)}`];
  if (operation.security?.length !== 0) lines.push(`-H "Authorization: Bearer $SVC_API_KEY"`);
  for (const header of parameters.filter((p) => p.in === "header" && (p.required || p.name === "Prefer"))) {
    // A fresh key per logical request, as the README's examples make it.
    if (header.name === "Idempotency-Key") lines.push(`-H "Idempotency-Key: $(node -p 'crypto.randomUUID()')"`);
    else lines.push(`-H ${shellQuote(`${header.name}: ${value(header)}`)}`);
  }
  const body = firstExample(document, requestBodyOf(document, entry)?.content["application/json"]);
  if (body) lines.push(`-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(body.value))}`);
  return lines.join(" \\\n  ");
}

function authentication(operation: DocumentedOperation["operation"]): string {
  if (operation.security?.length === 0) return "<p><strong>Authentication:</strong> none.</p>";
  const area = operation["x-api-key-area"];
  if (area === "capability") {
    return `<p><strong>Authentication:</strong> <a href="#authentication">API key</a> allowed the area of the capability the body names (its create's area).</p>`;
  }
  const scopes = SCOPE_TABLE.filter((row) => row.area === area).map((row) => `<code>${row.scope}</code>`);
  const tool = operation["x-mcp-tool"] ? `; its MCP tool <code>${escapeHtml(operation["x-mcp-tool"])}</code> needs <code>${escapeHtml(area ?? "")}:write</code>` : "";
  return `<p><strong>Authentication:</strong> <a href="#authentication">API key</a> allowed the area <code>${escapeHtml(area ?? "")}</code> (OAuth scopes ${scopes.join(", ") || "none"}${tool}).</p>`;
}

function parameterTable(operation: DocumentedOperation["operation"]): string {
  const rows = (operation.parameters ?? []).map((p) => [
    `<code>${escapeHtml(p.name)}</code>`,
    p.in,
    typeOf(p.schema),
    p.required ? "required" : "optional",
    details(prose(p.description), [...constraintsOf(p.schema), p.example !== undefined ? `example <code>${escapeHtml(String(p.example))}</code>` : ""]),
  ]);
  if (rows.length === 0) return "";
  return `<h4>Parameters</h4>\n${table(`Parameters of ${operation.operationId}`, ["Name", "In", "Type", "Required", "Details"], rows)}`;
}

function requestSection(document: ReferenceDocument, entry: DocumentedOperation): string {
  const { operation } = entry;
  const body = requestBodyOf(document, entry);
  const media = body?.content["application/json"];
  const example = firstExample(document, media);
  const parts = [`<h4>Request</h4>`];
  if (media?.schema) {
    parts.push(
      `<p>JSON body, ${body?.required ? "required" : "optional"}.</p>`,
      `<details><summary>Body fields</summary>${fieldTable(`Body fields of ${operation.operationId}`, media.schema)}</details>`,
    );
  }
  parts.push(codeBlock(`curl call of ${operation.operationId}`, curlExample(document, entry), { "data-curl": operation.operationId }));
  if (example) {
    parts.push(
      `<p>Body:</p>`,
      codeBlock(`Example body of ${operation.operationId}`, JSON.stringify(example.value, null, 2), {
        "data-example": "request",
        "data-operation": operation.operationId,
      }),
    );
  }
  return parts.join("\n");
}

function responseBody(document: ReferenceDocument, operationId: string, status: string, response: ResponseObject): string {
  const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [];
  if (!mediaType || !media) return "";
  // A refusal: the error envelope, with an example per code (a 503 of readiness is an answer of its own).
  const refusal = media.schema?.allOf?.[0]?.$ref === "#/components/schemas/ErrorEnvelope";
  const codes = refusal
    ? `<p>Codes: ${Object.keys(media.examples ?? {})
        .map((code) => `<a href="#${errorAnchor(code)}"><code>${escapeHtml(code)}</code></a>`)
        .join(", ")}. Body: the <a href="#errors">error envelope</a>.</p>`
    : "";
  const schema = media.schema?.$ref
    ? `<p>Body: <a href="#${schemaAnchor(refName(media.schema.$ref))}">${escapeHtml(refName(media.schema.$ref))}</a> (<code>${escapeHtml(mediaType)}</code>).</p>`
    : refusal
      ? ""
      : `<p>Body: <code>${escapeHtml(mediaType)}</code>${media.schema?.description ? `, ${prose(media.schema.description)}` : ""}</p>`;
  const example = firstExample(document, media);
  const block = example
    ? codeBlock(`Example ${status} answer of ${operationId}${refusal ? ` (${example.name})` : ""}`, JSON.stringify(example.value, null, 2), {
        "data-example": "response",
        "data-operation": operationId,
        "data-status": status,
      })
    : "";
  return `${codes}${schema}${block}`;
}

function responsesSection(document: ReferenceDocument, { operation }: DocumentedOperation): string {
  const items = Object.entries(operation.responses).map(([status, response]) => {
    const headers = Object.keys(response.headers ?? {})
      .map((name) => `<a href="#${anchor("header", name)}"><code>${escapeHtml(name)}</code></a>`)
      .join(", ");
    const body = responseBody(document, operation.operationId, status, response);
    const summary = `<strong>${escapeHtml(status)}</strong> ${prose(response.description)}`;
    const inner = `${headers ? `<p>Headers: ${headers}</p>` : ""}${body}`;
    // Successes open; refusals folded, since every route lists many.
    return `<li>${inner ? `<details${Number(status) < 400 ? " open" : ""}><summary>${summary}</summary>${inner}</details>` : summary}</li>`;
  });
  return `<h4>Responses</h4>\n<ul class="responses">\n${items.join("\n")}\n</ul>`;
}

export function operationSection(document: ReferenceDocument, entry: DocumentedOperation): string {
  const { method, path, operation } = entry;
  // A description that repeats the summary adds only what follows it.
  const more = operation.description?.startsWith(operation.summary.replace(/\.$/, "")) ? operation.description.slice(operation.summary.replace(/\.$/, "").length).replace(/^\.\s*/, "") : operation.description;
  const description = more ? `<p>${prose(more)}</p>` : "";
  const tool = operation["x-mcp-tool"] ? ` · MCP tool <code>${escapeHtml(operation["x-mcp-tool"])}</code>` : "";
  return `<section class="operation" aria-labelledby="${escapeHtml(operation.operationId)}">
<h3 id="${escapeHtml(operation.operationId)}"><span class="method ${method.toLowerCase()}">${method}</span> <code>${escapeHtml(path)}</code></h3>
<p class="summary">${prose(operation.summary)}</p>
${description}
<p class="meta">operationId <code>${escapeHtml(operation.operationId)}</code>${tool}</p>
${authentication(operation)}
${parameterTable(operation)}
${requestSection(document, entry)}
${responsesSection(document, entry)}
</section>`;
}
