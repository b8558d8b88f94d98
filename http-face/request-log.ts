import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { PROBE_PATHS, UNMATCHED_ROUTE, type HttpMetrics } from "../core/index.js";

// One line per request, when it is answered, with the method and URL: by then it names the tenant and the task,
// which a line at arrival (before authentication) could not. Everything logged during the request keeps its line.
// Probes (/healthz, /readyz, /metrics) are not logged: an orchestrator asks every few seconds.
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

// Request rate and latency by route template and status; a path no route matched is counted as one label.
export function observeRequests(app: FastifyInstance, metrics: HttpMetrics): void {
  app.addHook("onResponse", async (request, reply) => {
    metrics.observe(request.routeOptions.url ?? UNMATCHED_ROUTE, request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
}
