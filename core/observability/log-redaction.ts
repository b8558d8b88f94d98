// What may appear in a log line. Credentials and media bytes never do; prompt text only when LOG_PROMPTS is on
// (it is the tenant's content, and often personal).

// Request fields whose value is prompt text.
const PROMPT_FIELDS = new Set(["input", "prompt", "negative_prompt", "instruction", "lyrics", "title", "negative_tags"]);
// Fields whose value is a credential, wherever they appear.
const SECRET_FIELD = /(^|_)(authorization|api_?key|secret|token|password|signature|cookie)s?$/i;
// Query parameters that are credentials (a signed artifact URL's signature, tokens in callback URLs).
const SECRET_QUERY = /signature|token|key|secret|password|auth|code|sig/i;
const DATA_URI = /^data:([^;,]*)[^,]*,/;

export const REDACTED = "[redacted]";

export interface RedactionOptions {
  logPrompts: boolean;
}

// A URL with the values of credential-like query parameters replaced; anything unparsable is dropped whole.
export function redactUrl(url: string): string {
  const queryAt = url.indexOf("?");
  if (queryAt < 0) return url;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  for (const name of [...params.keys()]) if (SECRET_QUERY.test(name)) params.set(name, REDACTED);
  return `${url.slice(0, queryAt)}?${params.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED)}`;
}

function redactString(field: string | null, value: string, options: RedactionOptions): string {
  const dataUri = DATA_URI.exec(value);
  if (dataUri) return `[data URI ${dataUri[1] || "unknown type"}, ${value.length - dataUri[0].length} characters]`;
  if (field !== null && PROMPT_FIELDS.has(field) && !options.logPrompts) return `[prompt, ${value.length} characters]`;
  if (/^https?:\/\//i.test(value)) return redactUrl(value);
  return value;
}

// A copy of a request body (or any JSON value) fit for a log line: credentials removed, media bytes (data URIs,
// base64 uploads) replaced by their size, prompt text replaced by its length unless `logPrompts`.
export function redactForLog(value: unknown, options: RedactionOptions, field: string | null = null): unknown {
  if (typeof value === "string") return redactString(field, value, options);
  if (Array.isArray(value)) return value.map((item) => redactForLog(item, options, field));
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
    if (SECRET_FIELD.test(name)) copy[name] = REDACTED;
    else if (name === "content_base64" && typeof inner === "string") copy[name] = `[base64, ${inner.length} characters]`;
    else copy[name] = redactForLog(inner, options, name);
  }
  return copy;
}

// Drizzle's failed-query errors carry the query's parameters, which hold request content (prompts, hashed keys):
// in their message ("Failed query: …\nparams: <parameters>") and as a property. The statement stays; the
// parameters go, wherever they appear in the serialized error.
export function withoutQueryParameters<T extends { message: string; stack?: string; [field: string]: unknown }>(serialized: T, error: unknown): T {
  const params = (error as { params?: unknown }).params;
  if (params === undefined) return serialized;
  const rendered = `\nparams: ${String(params)}`;
  const scrub = (text: string) => text.split(rendered).join(`\nparams: ${REDACTED}`);
  const { params: _dropped, ...rest } = serialized;
  void _dropped;
  return { ...rest, message: scrub(serialized.message), ...(serialized.stack ? { stack: scrub(serialized.stack) } : {}) } as T;
}
