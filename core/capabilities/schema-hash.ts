import { createHash } from "node:crypto";
import { z } from "zod";
import { canonicalJson } from "../idempotency/fingerprint.js";
import type { Capability } from "./types.js";

const cache = new WeakMap<Capability, string>();

// Descriptions are documentation, not shape: rewording one must not change the hash.
function withoutDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDescriptions);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === "description" && typeof value === "string"))
      .map(([key, value]) => [key, withoutDescriptions(value)]),
  );
}

// A short hash of the capability's input JSON Schema: it changes exactly when the accepted request shape does.
export function capabilitySchemaHash(capability: Capability): string {
  let hash = cache.get(capability);
  if (!hash) {
    const schema = withoutDescriptions(z.toJSONSchema(capability.inputSchema, { io: "input", unrepresentable: "any" }));
    hash = `sha256:${createHash("sha256").update(canonicalJson(schema)).digest("hex").slice(0, 16)}`;
    cache.set(capability, hash);
  }
  return hash;
}
