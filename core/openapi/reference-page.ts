import { createHash } from "node:crypto";
import type { buildOpenApiDocument } from "./document.js";
import { guides } from "./reference-guides.js";
import { documentedOperations, escapeHtml, prose, schemaAnchor, tagAnchor, type DocumentedOperation, type ReferenceDocument } from "./reference-html.js";
import { operationSection } from "./reference-operation.js";
import { fieldTable } from "./reference-schema.js";
import { REFERENCE_SCRIPT } from "./reference-script.js";

// The API reference at /v1/docs: one self-contained HTML page rendered from the OpenAPI document (nothing else
// describes an endpoint). Nothing fetched from elsewhere: its one inline style sheet and its one inline script (the
// contents' search and the code blocks' copy buttons, reference-script.ts) are allowed by their hashes in the
// page's Content-Security-Policy, so it works offline and under the strictest policy, and reads whole without the
// script.

export interface ReferencePage {
  html: string;
  contentSecurityPolicy: string;
}

// Areas in reading order: tasks first, then each capability's creates, then the account's resources.
const AREA_ORDER = ["tasks", "speech", "images", "videos", "music", "voices", "assets", "credits", "callbacks", "catalog", "service"];

const STYLE = `:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#57606a;--line:#d0d7de;--code:#f3f4f6;--link:#0550ae;--focus:#bf3989}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9da7b3;--line:#30363d;--code:#161b22;--link:#6cb6ff;--focus:#f778ba}}
*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}a:focus-visible,summary:focus-visible,pre:focus-visible,.scroll:focus-visible,main:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem 1rem}.skip:focus{left:.5rem}
header{padding:1rem;border-bottom:1px solid var(--line)}header h1{margin:0;font-size:1.5rem}header p{margin:.25rem 0;color:var(--muted)}
.layout{display:block}nav{padding:0 1rem;border-bottom:1px solid var(--line);font-size:.95rem}nav ol{padding-left:1.1rem;margin:.25rem 0}nav li{margin:.15rem 0}
main{padding:0 1rem 4rem;max-width:62rem;min-width:0}h2{margin-top:2.5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
h3{margin-top:2rem;font-size:1.1rem;overflow-wrap:anywhere}h2,h3{scroll-margin-top:.75rem}h4{margin:1.25rem 0 .5rem}.operation{border-top:1px solid var(--line);margin-top:1.5rem}
.method{display:inline-block;min-width:4.2rem;padding:0 .4rem;border-radius:4px;font:600 .85rem/1.6 ui-monospace,monospace;text-align:center;background:var(--code);border:1px solid var(--line)}
.meta{color:var(--muted);font-size:.9rem}code{font:.9em ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
pre{background:var(--code);border:1px solid var(--line);padding:.75rem;overflow:auto;max-height:32rem;font-size:.85rem}pre code{overflow-wrap:normal}
.scroll{overflow-x:auto;margin:.5rem 0}table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{border:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:var(--code)}ul.responses{padding-left:1.1rem}summary{cursor:pointer}
@media (min-width:40rem){td:first-child code{white-space:nowrap}}
@media (max-width:40rem){thead{position:absolute;left:-999px}tr{display:block;border:1px solid var(--line);margin:.5rem 0}td{display:block;border:0;padding:.15rem .5rem}td::before{content:attr(data-label) ": ";font-weight:600}}
@media (min-width:70rem){.layout{display:grid;grid-template-columns:20rem minmax(0,1fr);gap:1.5rem}nav{position:sticky;top:0;max-height:100vh;overflow:auto;border-bottom:0;border-right:1px solid var(--line);padding-bottom:2rem}}
@media (max-width:69.99rem){.toc{max-height:45vh;overflow:auto}}
.search{margin:.5rem 0}.search label{display:block;font-weight:600}.search input{width:100%;font:inherit;padding:.35rem .5rem;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg)}
.code{position:relative}.code pre{padding-top:2.2rem}button.copy{position:absolute;top:.35rem;right:.35rem;font:.8rem system-ui,sans-serif;padding:.2rem .6rem;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--link);cursor:pointer}
button.copy:focus-visible,.search input:focus-visible{outline:3px solid var(--focus);outline-offset:2px}`;

const title = (tag: string) => tag.charAt(0).toUpperCase() + tag.slice(1);

function groups(document: ReferenceDocument): { tag: string; description: string; operations: DocumentedOperation[] }[] {
  const operations = documentedOperations(document);
  const tags = [...new Set([...AREA_ORDER, ...document.tags.map((t) => t.name)])];
  return tags
    .map((tag) => ({
      tag,
      description: document.tags.find((t) => t.name === tag)?.description ?? "",
      operations: operations.filter(({ operation }) => operation.tags[0] === tag),
    }))
    .filter((group) => group.operations.length > 0);
}

function link(id: string, text: string): string {
  return `<a href="#${escapeHtml(id)}">${text}</a>`;
}

export function renderReferencePage(generated: ReturnType<typeof buildOpenApiDocument>): ReferencePage {
  const document = generated as ReferenceDocument;
  const sections = guides(document);
  const areas = groups(document);
  const schemas = Object.entries(document.components.schemas);
  // Each operation's entry carries the words the search matches beyond its link: id, summary, tool, capability.
  const searchWords = ({ operation }: DocumentedOperation) =>
    escapeHtml([operation.operationId, operation.summary, operation["x-mcp-tool"] ?? "", operation["x-capability"] ?? ""].join(" "));
  const contents = `<nav aria-labelledby="contents"><h2 id="contents">Contents</h2>
<div class="search" role="search" hidden><label for="search">Search the reference</label><input id="search" type="search" autocomplete="off" spellcheck="false" placeholder="speech, cancel, createImage, /v1/credits…" aria-describedby="search-count"><span id="search-count" class="meta" aria-live="polite"></span></div>
<ol class="toc" tabindex="0" aria-label="Sections and operations">
${sections.map((guide) => `<li>${link(guide.id, escapeHtml(guide.title))}</li>`).join("\n")}
${areas
  .map(
    (group) => `<li>${link(tagAnchor(group.tag), escapeHtml(title(group.tag)))}<ol>
${group.operations.map((entry) => `<li data-search="${searchWords(entry)}">${link(entry.operation.operationId, `<code>${entry.method} ${escapeHtml(entry.path)}</code>`)}</li>`).join("\n")}
</ol></li>`,
  )
  .join("\n")}
<li>${link("objects", "Objects")}<ol>
${schemas.map(([name]) => `<li>${link(schemaAnchor(name), escapeHtml(name))}</li>`).join("\n")}
</ol></li>
</ol></nav>`;
  const body = [
    ...sections.map((guide) => `<section aria-labelledby="${guide.id}"><h2 id="${guide.id}">${escapeHtml(guide.title)}</h2>\n${guide.html}</section>`),
    ...areas.map(
      (group) => `<section aria-labelledby="${tagAnchor(group.tag)}"><h2 id="${tagAnchor(group.tag)}">${escapeHtml(title(group.tag))}</h2>
<p>${prose(group.description)}</p>
${group.operations.map((entry) => operationSection(document, entry)).join("\n")}
</section>`,
    ),
    `<section aria-labelledby="objects"><h2 id="objects">Objects</h2>
<p>The answers' shapes, as <code>components/schemas</code> of the document; each field with its type and meaning.</p>
${schemas
  .map(([name, schema]) => `<h3 id="${schemaAnchor(name)}">${escapeHtml(name)}</h3>\n${schema.description ? `<p>${prose(schema.description)}</p>` : ""}${fieldTable(`Fields of ${name}`, schema)}`)
  .join("\n")}
</section>`,
  ];
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)} API reference</title>
<style>${STYLE}</style>
</head><body>
<a class="skip" href="#main">Skip to the reference</a>
<header><h1>${escapeHtml(document.info.title)} API reference</h1>
<p>Version ${escapeHtml(document.info.version)} · <a href="/">Console</a> · <a href="/v1/openapi.json">OpenAPI ${escapeHtml(document.openapi)} document</a> · base URL <code>${escapeHtml(document.servers[0]?.url ?? "")}</code></p></header>
<div class="layout">
${contents}
<main id="main" tabindex="-1">
${body.join("\n")}
</main>
</div>
<script>${REFERENCE_SCRIPT}</script>
</body></html>`;
  const hash = (text: string) => createHash("sha256").update(text).digest("base64");
  return {
    html,
    contentSecurityPolicy: `default-src 'none'; style-src 'sha256-${hash(STYLE)}'; script-src 'sha256-${hash(REFERENCE_SCRIPT)}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  };
}
