import type { buildOpenApiDocument } from "./document.js";

type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

// A self-contained HTML reference (no scripts, no external assets) rendered from the OpenAPI document.
export function renderReferencePage(document: OpenApiDocument): string {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Record<string, unknown>>).map(([method, operation]) => {
      const reference = operation.requestBody as { $ref: string } | undefined;
      const bodies = document.components.requestBodies as Record<string, { content: { "application/json": { schema: unknown; example?: unknown } } }>;
      const body = reference ? bodies[reference.$ref.split("/").pop() as string] : undefined;
      const schema = body?.content["application/json"].schema;
      const responses = Object.keys(operation.responses as object).join(", ");
      return `<section id="${escape(String(operation.operationId))}">
  <h2><code>${method.toUpperCase()} ${escape(path)}</code></h2>
  <p>${escape(String(operation.summary ?? ""))}</p>
  ${operation["x-mcp-tool"] ? `<p>MCP tool: <code>${escape(String(operation["x-mcp-tool"]))}</code></p>` : ""}
  <p>Responses: ${escape(responses)}</p>
  ${body?.content["application/json"].example !== undefined ? `<details><summary>Example body</summary><pre>${escape(JSON.stringify(body.content["application/json"].example, null, 2))}</pre></details>` : ""}
  ${schema ? `<details><summary>Request schema</summary><pre>${escape(JSON.stringify(schema, null, 2))}</pre></details>` : ""}
</section>`;
    }),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(document.info.title)} API reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:.75rem;overflow:auto}h2{font-size:1.05rem;margin-top:2rem}</style>
</head><body>
<h1>${escape(document.info.title)} <small>v${escape(document.info.version)}</small></h1>
<p>${escape(document.info.description)}</p>
<p>Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI ${escape(document.openapi)}).</p>
${operations.join("\n")}
</body></html>`;
}
