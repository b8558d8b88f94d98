import { failure, findCapability, invalidRequest, quoteTask, requireArea, type Core } from "../../core/index.js";
import { principalOf } from "../plugins/auth.js";
import type { HandWrittenRoutes } from "./hand-written-route.js";

// POST /v1/quotes: a create's body with the capability beside its fields ({"capability": "text_to_speech",
// "voice": …, "input": …}) answers what the create would do — the resolved model, the selection reason, the price
// and the hold — or the refusal it would give, with the same `param` pointers, since the fields sit where the
// create has them. core's quoteTask (shared with MCP's svc.tasks.quote) holds and creates nothing; no
// Idempotency-Key is needed. The key must be allowed the capability's area, as for the create: the route only
// authenticates (its area is "capability"), the area is checked here once the body names it.
export function quoteRoutes(core: Core): HandWrittenRoutes<"createQuote"> {
  return {
    createQuote: {
      handler: async (request) => {
        const body = request.body;
        if (body === null || typeof body !== "object" || Array.isArray(body)) throw invalidRequest([failure([], "the body must be a JSON object")]);
        const { capability, ...createBody } = body as Record<string, unknown>;
        if (typeof capability !== "string") {
          throw invalidRequest([failure(["capability"], "is required: the capability to price, as a task names it (e.g. text_to_speech)")]);
        }
        const principal = principalOf(request);
        const known = findCapability(capability);
        if (known) requireArea(principal, known.area);
        return quoteTask(core, principal.tenantId, capability, createBody);
      },
    },
  };
}
