import type { FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { authenticate, requireArea, type Area, type Core, type Principal } from "../../core/index.js";

declare module "fastify" {
  interface FastifyRequest {
    principal?: Principal;
  }
}

// Every route but the signed artifact download names its area; this hook authenticates and checks it. It runs
// on request, before the body is read, so an unauthenticated caller learns nothing about its body and costs
// no parsing.
export function requireAuth(core: Core, area: Area): onRequestAsyncHookHandler {
  return async (request) => {
    const principal = await authenticate(core, request.headers.authorization);
    requireArea(principal, area);
    request.principal = principal;
  };
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error("route is missing its auth hook");
  return request.principal;
}
