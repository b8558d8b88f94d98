import { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { PROBE_PATHS, UNMATCHED_ROUTE, type HttpMetrics, type Logger } from "../core/index.js";

// What a request's log lines should say once known (its tenant, its task), kept aside on the request and given to
// its logger only when a line about the request is written: pino's setBindings serializes (and redacts) the
// bindings each call, which most requests, answered without a line at LOG_LEVEL=warn, would pay for nothing. A
// property of the request, not a WeakMap: every request sets it, and the profile of reads showed the map's cost.
const PENDING = Symbol("log bindings not yet given to the request's logger");
type WithPending = FastifyRequest & { [PENDING]?: Record<string, string> };

export function bindRequestLog(request: FastifyRequest, bindings: Record<string, string>): void {
  const pending = (request as WithPending)[PENDING];
  if (pending) Object.assign(pending, bindings);
  else (request as WithPending)[PENDING] = { ...bindings };
}

// The request's logger with everything bound so far: every line about a request is written through it.
export function requestLog(request: FastifyRequest): FastifyBaseLogger {
  const bindings = (request as WithPending)[PENDING];
  if (bindings) {
    (request as WithPending)[PENDING] = undefined;
    (request.log as Logger).setBindings(bindings);
  }
  return request.log;
}

// One line per request, when it is answered, with the method and URL: by then it names the tenant and the task,
// which a line at arrival (before authentication) could not. Everything logged during the request keeps its line.
// Probes (/healthz, /readyz, /metrics) are not logged: an orchestrator asks every few seconds.
class AnsweredRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const level = error ? "error" : "info";
    if (!(request.log as Logger).isLevelEnabled(level)) return;
    const fields = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) requestLog(request).error({ ...fields, err: error }, "request errored");
    else requestLog(request).info(fields, "request completed");
  }
}

export function requestLogController(): LogController {
  return new AnsweredRequestLog({ requestIdLogLabel: "request_id", disableRequestLogging: (request) => PROBE_PATHS.has(request.url) });
}

// Request rate and latency by route template and status; a path no route matched is counted as one label.
export function observeRequests(app: FastifyInstance, metrics: HttpMetrics): void {
  app.addHook("onResponse", (request, reply, done) => {
    metrics.observe(request.routeOptions.url ?? UNMATCHED_ROUTE, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
