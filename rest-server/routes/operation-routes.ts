import type { FastifyInstance } from "fastify";
import { OPERATIONS, StatusAnswer, type Core, type Operation } from "../../core/index.js";
import { principalOf, requireAuth } from "../plugins/auth.js";
import { markWaitApplied, preferredWait } from "./prefer-wait.js";

// An operation whose answer documents Preference-Applied honours Prefer: wait=N (GET /v1/tasks/{task_id}).
function honoursPreferWait(operation: Operation): boolean {
  return Object.values(operation.responses).some((response) => response.headers?.includes("Preference-Applied"));
}

// One loop over the operations table: every operation with a use case is the same handler, authenticated for its
// area, answering with its first documented status unless the use case names another. The others (event streams,
// signed downloads, quotes, probes, the document) are registered by hand in their own files.
export function registerOperationRoutes(app: FastifyInstance, core: Core): void {
  for (const operation of OPERATIONS) {
    const run = operation.run;
    if (!run) continue;
    if (!operation.area || operation.area === "capability") throw new Error(`${operation.operationId} has a use case but no fixed area`);
    const status = Number(Object.keys(operation.responses)[0]);
    const waits = honoursPreferWait(operation);
    app.route<{ Params: Record<string, string>; Querystring: Record<string, unknown> }>({
      method: operation.method,
      url: operation.path.replace(/\{(\w+)\}/g, ":$1"),
      onRequest: requireAuth(core, operation.area),
      handler: async (request, reply) => {
        const wait = waits ? preferredWait(request, reply) : undefined;
        const answer = await run(core, {
          tenantId: principalOf(request).tenantId,
          params: request.params,
          query: request.query,
          body: request.body,
          wait,
        });
        if (wait) markWaitApplied(reply, wait);
        return answer instanceof StatusAnswer ? reply.status(answer.status).send(answer.body) : reply.status(status).send(answer);
      },
    });
  }
}
