import type { FastifyInstance } from "fastify";
import { enforceRateLimit, type Core } from "../../core/index.js";

// Every authenticated request counts against its API key's and its tenant's budgets, kept where every server
// process sees them. The hook runs once the route's auth hook (onRequest) has named the caller and before the
// body is read, so a refused request costs no parsing; the X-RateLimit-* headers go on every answer to an
// authenticated request, errors included. Unauthenticated requests (401, signed downloads) are not counted.
export function registerRateLimit(app: FastifyInstance, core: Core): void {
  app.addHook("preParsing", async (request, reply, payload) => {
    const principal = request.principal;
    if (!principal) return payload;
    const headers = await enforceRateLimit(core, {
      tenantId: principal.tenantId,
      credential: { kind: "api_key", id: principal.apiKeyId },
    });
    reply.headers(headers);
    return payload;
  });
}
