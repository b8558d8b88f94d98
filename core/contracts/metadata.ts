import { z } from "zod";
import { codePointLength } from "./text.js";

const MAX_KEYS = 16;
const MAX_KEY_LENGTH = 64;
const MAX_VALUE_LENGTH = 512;

function isLabelObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// A task's labels, echoed as sent: every key is kept, `__proto__` too. zod's record leaves that key out of what it
// builds (assigning it to a plain object would set the prototype, not add a key), so the labels are checked here
// and passed on as they are: JSON.parse made each key an own property, the values are strings, and nothing copies
// them key by key, so no prototype is ever reached. Its JSON Schema is the record's.
export const metadataSchema = z
  .custom<Record<string, string>>()
  .superRefine((metadata, ctx) => {
    if (!isLabelObject(metadata)) return ctx.addIssue({ code: "invalid_type", expected: "record", input: metadata });
    const keys = Object.keys(metadata);
    if (keys.length > MAX_KEYS) ctx.addIssue({ code: "custom", message: `must have at most ${MAX_KEYS} keys` });
    for (const key of keys) {
      const value = metadata[key];
      if (typeof value !== "string") {
        ctx.addIssue({ code: "invalid_type", expected: "string", input: value, path: [key] });
        continue;
      }
      if (codePointLength(key) > MAX_KEY_LENGTH) {
        ctx.addIssue({ code: "custom", path: [key], message: `key must be at most ${MAX_KEY_LENGTH} characters` });
      }
      if (codePointLength(value) > MAX_VALUE_LENGTH) {
        ctx.addIssue({ code: "custom", path: [key], message: `value must be at most ${MAX_VALUE_LENGTH} characters` });
      }
    }
  })
  .meta({ type: "object", propertyNames: { type: "string" }, additionalProperties: { type: "string" } });
