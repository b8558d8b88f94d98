import { hash } from "node:crypto";

// Canonical JSON: object keys sorted at every depth, so that the same request always hashes the same. Stored
// fingerprints are compared with new ones across deployments, so the text must never change. Built with loops and
// one string, as it runs on every admission.
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) text += (i > 0 ? "," : "") + canonicalJson(value[i]);
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = "{";
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    text += `${text.length > 1 ? "," : ""}${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${text}}`;
}

export function requestFingerprint(capabilityId: string, input: unknown): string {
  return hash("sha256", canonicalJson({ capability: capabilityId, input }), "hex");
}
