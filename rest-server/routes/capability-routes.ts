import type { FastifyInstance } from "fastify";
import { CAPABILITIES, createTask, deprecationHeaders, type Core } from "../../core/index.js";
import { principalOf, requireAuth } from "../plugins/auth.js";
import { afterPreferredWait } from "./prefer-wait.js";

// One loop over the capability table: every task-creating endpoint is the same handler.
export function registerCapabilityRoutes(app: FastifyInstance, core: Core): void {
  for (const capability of CAPABILITIES) {
    app.post(capability.path, { onRequest: requireAuth(core, capability.area) }, async (request, reply) => {
      const key = request.headers["idempotency-key"];
      const result = await createTask(core, capability.id, request.body, {
        tenantId: principalOf(request).tenantId,
        apiKeyId: principalOf(request).apiKeyId,
        idempotencyKey: typeof key === "string" ? key : undefined,
        requestId: request.id,
        surface: "rest",
      });
      if (result.replayed) reply.header("Idempotent-Replayed", "true");
      if (result.deprecation) reply.headers(deprecationHeaders(result.deprecation));
      // Prefer: wait=N answers once the task has ended (or at N seconds), still as the 202 of its admission.
      return reply.status(202).send(await afterPreferredWait(core, request, reply, result.task));
    });
  }
}
