import type { FastifyInstance, FastifyRequest } from "fastify";
import { bindRequestLog } from "../../http-face/request-log.js";

// Requests whose log already names their task.
const taskBound = new WeakSet<FastifyRequest>();

// Log lines that say which task a request concerns: from the path or from the envelope answered. (Its tenant is
// bound by the auth hook; the line itself and the request metrics are the HTTP face's.)
export function registerRequestTelemetry(app: FastifyInstance): void {
  // Before the body is parsed, so even a request refused for its body is logged with its task.
  app.addHook("preParsing", (request, _reply, payload, done) => {
    const taskId = (request.params as { task_id?: unknown } | undefined)?.task_id;
    if (typeof taskId === "string") {
      bindRequestLog(request, { task_id: taskId });
      taskBound.add(request);
    }
    done(null, payload);
  });
  // A created (or replayed) task's id is known only from the answer.
  app.addHook("preSerialization", (request, _reply, payload, done) => {
    const taskId = (payload as { task_id?: unknown } | null)?.task_id;
    if (typeof taskId === "string" && !taskBound.has(request)) bindRequestLog(request, { task_id: taskId });
    done(null, payload);
  });
}
