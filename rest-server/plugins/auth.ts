import type { FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { authenticate, enforceRateLimit, requireArea, type Area, type Core, type Principal } from "../../core/index.js";
import { bindRequestLog } from "../../http-face/request-log.js";

declare module "fastify" {
  interface FastifyRequest {
    principal?: Principal;
  }
}

// Every route whose row (in the capability or the operations table) names an area: this hook authenticates,
// checks the area and counts the request against its API key's and its tenant's budgets (kept where every server
// process sees them), in one hook on request, before the body is read: an unauthenticated caller learns nothing
// about its body and costs no parsing, and a refused one costs none either. The X-RateLimit-* headers go on every
// answer to an authenticated request, errors included; unauthenticated requests (401, signed downloads) are not
// counted.
export function requireAuth(core: Core, area: Area): onRequestAsyncHookHandler {
  return async (request, reply) => {
    const principal = await authenticate(core, request.headers.authorization);
    bindRequestLog(request, { tenant_id: principal.tenantId });
    requireArea(principal, area);
    request.principal = principal;
    const headers = await enforceRateLimit(core, { tenantId: principal.tenantId, credential: { kind: "api_key", id: principal.apiKeyId } });
    reply.headers(headers);
  };
}

// Authentication alone, for a route whose area depends on its body (the quote checks the priced capability's area
// once it has read it); such a request is not counted against the budgets.
export function requireAuthentication(core: Core): onRequestAsyncHookHandler {
  return async (request) => {
    request.principal = await authenticate(core, request.headers.authorization);
  };
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error("route is missing its auth hook");
  return request.principal;
}
