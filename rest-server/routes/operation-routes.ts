import type { FastifyInstance } from "fastify";
import { OPERATIONS, type Core } from "../../core/index.js";
import { principalOf, requireAuth } from "../plugins/auth.js";

// One loop over the operations table: every operation with a use case is the same handler, authenticated for its
// area, answering with its first documented status. The others (task reads, streams, downloads, probes, the
// document) are registered by hand in their own files.
export function registerOperationRoutes(app: FastifyInstance, core: Core): void {
  for (const operation of OPERATIONS) {
    const run = operation.run;
    if (!run) continue;
    if (!operation.area || operation.area === "capability") throw new Error(`${operation.operationId} has a use case but no fixed area`);
    const status = Number(Object.keys(operation.responses)[0]);
    app.route<{ Params: Record<string, string>; Querystring: Record<string, unknown> }>({
      method: operation.method,
      url: operation.path.replace(/\{(\w+)\}/g, ":$1"),
      onRequest: requireAuth(core, operation.area),
      handler: async (request, reply) => {
        const answer = await run(core, {
          tenantId: principalOf(request).tenantId,
          params: request.params,
          query: request.query,
          body: request.body,
        });
        return reply.status(status).send(answer);
      },
    });
  }
}
