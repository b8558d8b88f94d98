import { failure, invalidRequest } from "../errors/index.js";
import { refuseUnboundedJsonValue } from "./json-shape.js";

// Postgres text and jsonb cannot hold U+0000, and an unpaired UTF-16 surrogate (valid in a JSON string) has no
// UTF-8 form: a request carrying either is refused as invalid, rather than failing when it is stored.
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const UNSTORABLE_REASON = "contains a NUL character or an unpaired surrogate";

export function isUnstorableText(text: string): boolean {
  return text.includes("\u0000") || UNPAIRED_SURROGATE.test(text);
}

// The path of the first key or string value that cannot be stored, or null. Recursive: callers bound the depth first.
function unstorablePath(value: unknown, path: (string | number)[]): (string | number)[] | null {
  if (typeof value === "string") return isUnstorableText(value) ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unstorablePath(item, [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (isUnstorableText(key)) return [...path, key];
      const found = unstorablePath(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

// 422 invalid_request at the offending field of a JSON body or tool arguments: first the shape bounds of
// json-shape.ts (so MCP tool arguments get them too), then the text itself.
export function refuseUnstorableText(value: unknown): void {
  refuseUnboundedJsonValue(value);
  const path = unstorablePath(value, []);
  if (path) throw invalidRequest([failure(path, UNSTORABLE_REASON)]);
}
