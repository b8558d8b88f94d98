import { SCOPE_TABLE } from "../oauth/scopes.js";
import { firstExample } from "./reference-operation.js";
import {
  anchor,
  codeBlock,
  documentedOperations,
  errorAnchor,
  escapeHtml,
  prose,
  refName,
  schemaAnchor,
  table,
  type ReferenceDocument,
} from "./reference-html.js";
import { constraintsOf, details } from "./reference-schema.js";

// The reference page's sections that are not one operation: authentication, the conventions of task creation,
// errors, rate limits, callbacks. Their facts come from the document (security scheme, headers, error examples,
// the webhook); the prose around them says how the pieces fit.

export interface Guide {
  id: string;
  title: string;
  html: string;
}

// How a receiver checks a delivery's X-Signature (the README's receiver does the same; the reference test runs this).
export const SIGNATURE_CHECK_EXAMPLE = `import { createHmac, timingSafeEqual } from "node:crypto";

// header: the X-Signature header; rawBody: the request body exactly as received; secret: your key's whsec_…
function signatureValid(header = "", rawBody, secret) {
  const fields = header.split(",").map((field) => field.split("=", 2));
  const t = Number(fields.find(([name]) => name === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac("sha256", secret).update(\`\${t}.\${rawBody}\`).digest();
  // During a key rotation there are two v1 values (old and new secret): either may match.
  return fields.some(([name, hex]) => {
    const given = Buffer.from(name === "v1" ? hex : "", "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}`;

function authenticationGuide(document: ReferenceDocument): Guide {
  const scheme = Object.values(document.components.securitySchemes)[0];
  const rows = SCOPE_TABLE.map((row) => [`<code>${row.area}</code>`, `<code>${row.scope}</code>`, escapeHtml(row.allows)]);
  const open = documentedOperations(document)
    .filter(({ operation }) => operation.security?.length === 0)
    .map(({ operation, method, path }) => `<a href="#${escapeHtml(operation.operationId)}"><code>${method} ${escapeHtml(path)}</code></a>`);
  return {
    id: "authentication",
    title: "Authentication",
    html: `<p>Every call carries <code>Authorization: Bearer &lt;API key&gt;</code>: ${prose(scheme?.description)}. Only these need none: ${open.join(", ")}.</p>
<p>Getting a key: on its first start <code>npm start</code> creates a development tenant, prints its key and saves it in
<code>.data/dev-api-key</code>. Make more with the CLI; a key is shown once:</p>
${codeBlock("Creating API keys", `npx svc key create <tenant_id> --json                      # every area
npx svc key create <tenant_id> --areas tasks,speech --json   # only some areas
export SVC_API_KEY=$(cat .data/dev-api-key)`)}
<p>A key may be limited to <em>areas</em>; each operation below names the area it needs, and a key without it is refused
with 403 <a href="#${errorAnchor("forbidden")}"><code>forbidden</code></a>. A missing or malformed header answers 401
<a href="#${errorAnchor("unauthorized")}"><code>unauthorized</code></a>, an unknown or revoked key 401
<a href="#${errorAnchor("invalid_api_key")}"><code>invalid_api_key</code></a>, a suspended account 403
<a href="#${errorAnchor("tenant_disabled")}"><code>tenant_disabled</code></a>.</p>
<p>The MCP server also takes OAuth access tokens (<code>npx svc token &lt;tenant_id&gt; --scopes speech:write,tasks:read</code>
mints a development one). A key's areas become these scopes, and each MCP tool needs one of them:</p>
${table("Areas and OAuth scopes", ["Area", "Scope", "Allows"], rows)}`,
  };
}

function conventionsGuide(document: ReferenceDocument): Guide {
  const create = documentedOperations(document).find(({ operation }) => operation["x-capability"]);
  const headers = (create?.operation.parameters ?? []).filter((p) => p.in === "header");
  const rows = headers.map((p) => [`<code>${escapeHtml(p.name)}</code>`, p.required ? "required" : "optional", details(prose(p.description), constraintsOf(p.schema))]);
  return {
    id: "tasks-and-waiting",
    title: "Tasks, idempotency and waiting",
    html: `<p>${prose(document.info.description)}</p>
<p>Every task-creating <code>POST</code> takes these headers:</p>
${table("Headers of task creation", ["Header", "Required", "Meaning"], rows)}
<p>Without <code>Prefer: wait</code> the answer is the queued task at once; read it again with
<a href="#getTask"><code>GET /v1/tasks/{task_id}</code></a> (which also takes <code>Prefer: wait=N</code>), or follow
<a href="#streamTaskEvents">its event stream</a>, or give a <a href="#callbacks"><code>callback_url</code></a>.
<a href="#createQuote"><code>POST /v1/quotes</code></a> answers the price and the model first, creating nothing.</p>`,
  };
}

function errorsGuide(document: ReferenceDocument): Guide {
  // A code with a second answer (artifact_not_found's 410) has a second row; the anchor is the first's.
  const anchored = new Set<string>();
  const rows = Object.values(document.components.examples).map((example) => {
    const error = (example.value as { error: { code: string; type: string; retryable: boolean; message: string } }).error;
    const anchor = anchored.has(error.code) ? "" : ` id="${errorAnchor(error.code)}"`;
    anchored.add(error.code);
    return [
      `<code${anchor}>${escapeHtml(error.code)}</code>`,
      String(example["x-http-status"]),
      error.retryable ? "yes" : "no",
      `<code>${escapeHtml(error.type)}</code>`,
      prose(error.message),
    ];
  });
  const envelope = document.components.examples.Error_invalid_request?.value;
  return {
    id: "errors",
    title: "Errors",
    html: `<p>Every refusal (status 400 and above) answers the <a href="#${schemaAnchor("ErrorEnvelope")}">error envelope</a>:
an <code>error</code> object with a <code>code</code> to branch on, a <code>message</code> for people, <code>retryable</code>,
<code>param</code> (a JSON Pointer to the field at fault, when there is one), <code>details</code> and the <code>request_id</code>
also sent as <code>X-Request-Id</code>. Retry a retryable error with the same <code>Idempotency-Key</code> after a backoff,
honouring <code>Retry-After</code>; a non-retryable one repeats until the request changes. Each operation lists the codes it can answer.</p>
${envelope ? codeBlock("Example error envelope", JSON.stringify(envelope, null, 2), { "data-example": "error", "data-code": "invalid_request" }) : ""}
${table("Error codes", ["Code", "HTTP", "Retryable", "Type", "Example message"], rows)}`,
  };
}

function rateLimitsGuide(document: ReferenceDocument): Guide {
  const rows = Object.entries(document.components.headers).map(([name, header]) => [
    `<code id="${anchor("header", name)}">${escapeHtml(name)}</code>`,
    escapeHtml(String(header.schema.type ?? "")),
    prose(header.description),
  ]);
  return {
    id: "rate-limits",
    title: "Rate limits and response headers",
    html: `<p>Every authenticated request counts against its key's budget and its account's, each per fixed window.
Every answer to an authenticated request, refusals included, carries the <code>X-RateLimit-*</code> headers of the budget
with the least left; beyond it the answer is 429 <a href="#${errorAnchor("rate_limited")}"><code>rate_limited</code></a> with
<code>Retry-After</code>, and nothing else happens (no task, no hold; the <code>Idempotency-Key</code> stays free).</p>
${table("Response headers", ["Header", "Type", "Meaning"], rows)}`,
  };
}

function callbacksGuide(document: ReferenceDocument): Guide {
  const delivery = Object.values(document.webhooks)[0]?.post;
  const requestBody = delivery?.requestBody;
  const media = requestBody && "content" in requestBody ? requestBody.content["application/json"] : undefined;
  const example = firstExample(document, media);
  const rows = (delivery?.parameters ?? []).map((p) => [`<code>${escapeHtml(p.name)}</code>`, p.required ? "always" : "signed delivery", prose(p.description)]);
  const body = media?.schema?.$ref;
  return {
    id: "callbacks",
    title: "Callbacks and signature verification",
    html: `<p>${prose(delivery?.description)}</p>
<p>The body is a <a href="#${schemaAnchor(body ? refName(body) : "CallbackEvent")}">CallbackEvent</a>; dedupe on
<code>event_id</code> (retries and <a href="#redeliverTaskCallback">redeliveries</a> repeat it). Polling stays the source of truth.
For signed delivery, create a key with <a href="#createCallbackSigningKey"><code>POST /v1/callback-signing-keys</code></a>
(its <code>secret</code> is shown once) and pass its id as the task's <code>callback_signing_key_id</code>.</p>
${table("Delivery headers", ["Header", "Sent", "Meaning"], rows)}
<p>To verify a signed delivery: split <code>X-Signature</code> on commas into <code>t</code> and one or more <code>v1</code>;
refuse a <code>t</code> more than 300 seconds from now; compute HMAC-SHA256 with the secret over <code>t</code>, a dot and the
raw body (before any JSON parsing); accept if it equals any <code>v1</code>, compared in constant time.</p>
${codeBlock("Signature check in Node", SIGNATURE_CHECK_EXAMPLE, { "data-signature-check": "node" })}
${example ? `<p>A delivery's body:</p>\n${codeBlock("Example callback event", JSON.stringify(example.value, null, 2), { "data-example": "webhook" })}` : ""}`,
  };
}

export function guides(document: ReferenceDocument): Guide[] {
  return [authenticationGuide(document), conventionsGuide(document), errorsGuide(document), rateLimitsGuide(document), callbacksGuide(document)];
}
