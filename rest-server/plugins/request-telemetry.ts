import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Logger } from "../../core/index.js";

// Requests whose log already names their task (asking pino for its bindings parses them again each time).
const taskBound = new WeakSet<FastifyRequest>();

// The app's logger is core.log, a pino logger, so each request's child can take more bindings as they become known.
function requestLog(request: FastifyRequest): Logger {
  return request.log as Logger;
}

// Log lines that say whose request it was and which task it concerns: the tenant once authenticated, the task
// from the path or from the envelope answered. (The line itself and the request metrics are the HTTP face's.)
export function registerRequestTelemetry(app: FastifyInstance): void {
  // Route-level onRequest hooks (authentication) have run by now, and the body is not yet parsed, so even a
  // request refused for its body is logged with its tenant.
  app.addHook("preParsing", async (request) => {
    const bindings: Record<string, string> = {};
    if (request.principal) bindings.tenant_id = request.principal.tenantId;
    const taskId = (request.params as { task_id?: unknown } | undefined)?.task_id;
    if (typeof taskId === "string") {
      bindings.task_id = taskId;
      taskBound.add(request);
    }
    if (Object.keys(bindings).length > 0) requestLog(request).setBindings(bindings);
  });
  // A created (or replayed) task's id is known only from the answer.
  app.addHook("preSerialization", async (request, _reply, payload) => {
    const taskId = (payload as { task_id?: unknown } | null)?.task_id;
    if (typeof taskId === "string" && !taskBound.has(request)) requestLog(request).setBindings({ task_id: taskId });
    return payload;
  });
}
