import type { FastifyInstance } from "fastify";

// Vendor routes take their body as text and parse it themselves, so that an unparseable body gets the vendor's
// own error answer rather than Fastify's.
export function acceptRawBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
}

// The parsed body, or undefined when there is none or it is not JSON.
export function parseJsonBody(body: unknown): unknown {
  if (typeof body !== "string") return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
