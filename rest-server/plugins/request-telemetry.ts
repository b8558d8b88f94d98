import type { FastifyInstance, FastifyRequest } from "fastify";
import { bindRequestLog } from "../../http-face/request-log.js";

// Requests whose log already names their task.
const taskBound = new WeakSet<FastifyRequest>();

// Log lines that say whose request it was and which task it concerns: the tenant once authenticated, the task
// from the path or from the envelope answered. (The line itself and the request metrics are the HTTP face's.)
export function registerRequestTelemetry(app: FastifyInstance): void {
  // Route-level onRequest hooks (authentication) have run by now, and the body is not yet parsed, so even a
  // request refused for its body is logged with its tenant.
  app.addHook("preParsing", (request, _reply, payload, done) => {
    const bindings: Record<string, string> = {};
    if (request.principal) bindings.tenant_id = request.principal.tenantId;
    const taskId = (request.params as { task_id?: unknown } | undefined)?.task_id;
    if (typeof taskId === "string") {
      bindings.task_id = taskId;
      taskBound.add(request);
    }
    if (Object.keys(bindings).length > 0) bindRequestLog(request, bindings);
    done(null, payload);
  });
  // A created (or replayed) task's id is known only from the answer.
  app.addHook("preSerialization", (request, _reply, payload, done) => {
    const taskId = (payload as { task_id?: unknown } | null)?.task_id;
    if (typeof taskId === "string" && !taskBound.has(request)) bindRequestLog(request, { task_id: taskId });
    done(null, payload);
  });
}
