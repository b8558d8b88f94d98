import { createHash } from "node:crypto";
import { z } from "zod";
import { canonicalJson } from "../idempotency/fingerprint.js";
import type { Capability } from "./types.js";

const cache = new WeakMap<Capability, string>();

// A short hash of the capability's input JSON Schema: it changes exactly when the accepted request shape does.
export function capabilitySchemaHash(capability: Capability): string {
  let hash = cache.get(capability);
  if (!hash) {
    const schema = z.toJSONSchema(capability.inputSchema, { io: "input", unrepresentable: "any" });
    hash = `sha256:${createHash("sha256").update(canonicalJson(schema)).digest("hex").slice(0, 16)}`;
    cache.set(capability, hash);
  }
  return hash;
}
