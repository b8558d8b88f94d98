import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { PROBE_PATHS, UNMATCHED_ROUTE, type Core, type Logger } from "../../core/index.js";

// One line per request, when it is answered, with the method and URL: by then it names the tenant and the task,
// which a line at arrival (before authentication) could not. Everything logged during the request keeps its line.
class AnsweredRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const fields = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...fields, err: error }, "request errored");
    else reply.log.info(fields, "request completed");
  }
}

export function requestLogController(): LogController {
  return new AnsweredRequestLog({ requestIdLogLabel: "request_id", disableRequestLogging: (request) => PROBE_PATHS.has(request.url) });
}

// Requests whose log already names their task (asking pino for its bindings parses them again each time).
const taskBound = new WeakSet<FastifyRequest>();

// The app's logger is core.log, a pino logger, so each request's child can take more bindings as they become known.
function requestLog(request: FastifyRequest): Logger {
  return request.log as Logger;
}

// Request rate and latency by route template and status, and log lines that say whose request it was and which
// task it concerns: the tenant once authenticated, the task from the path or from the envelope answered.
export function registerRequestTelemetry(app: FastifyInstance, core: Core): void {
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
  app.addHook("onResponse", async (request, reply) => {
    core.metrics.observe(request.routeOptions.url ?? UNMATCHED_ROUTE, request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
}
