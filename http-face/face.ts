import Fastify, { type FastifyBaseLogger, type FastifyHttpOptions, type FastifyInstance } from "fastify";
import type { Server } from "node:http";
import { closingIdleConnections, errorBody, type HttpMetrics, type Logger } from "../core/index.js";
import { registerProbes, type Readiness } from "./probes.js";
import { requestIdFor } from "./request-id.js";
import { observeRequests, requestLogController } from "./request-log.js";

// The settings a process may add to the face's own (body limits, framework error handlers, router options).
export type ServerSettings = Omit<FastifyHttpOptions<Server>, "loggerInstance" | "logger" | "logController" | "genReqId">;

export interface HttpFaceOptions {
  // The process's JSON logger: every line about a request carries its request_id.
  log: Logger;
  metrics: HttpMetrics;
  readiness(): Promise<Readiness>;
  server?: ServerSettings;
}

declare module "fastify" {
  interface FastifyInstance {
    // Every route the server registers, so tests can hold a document (OpenAPI) to the truth.
    registeredRoutes: { method: string; url: string }[];
    // Stops accepting connections and resolves once the requests in flight are answered; meanwhile readiness and
    // any request on a kept-alive connection answer 503 with connection: close.
    drain(): Promise<void>;
  }
}

// What the four processes (REST, MCP, worker, emulator) show the outside alike: request ids echoed or made and
// sent back as X-Request-Id, one log line per answered request, request metrics, the three probes, and a drain
// that answers late requests in the service's error envelope.
export function createHttpFace(options: HttpFaceOptions): FastifyInstance {
  const app = Fastify({
    forceCloseConnections: "idle",
    ...options.server,
    loggerInstance: options.log as FastifyBaseLogger,
    logController: requestLogController(),
    genReqId: requestIdFor,
    // A draining server answers in the envelope below, not with Fastify's own body.
    return503OnClosing: false,
  });
  const routes: { method: string; url: string }[] = [];
  app.decorate("registeredRoutes", routes);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) if (method !== "HEAD") routes.push({ method, url: route.url });
  });
  let draining = false;
  // Hooks on every request are written with callbacks, not async: an async hook costs a promise and a turn of
  // the microtask queue per request (issue 19's profile).
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("X-Request-Id", request.id);
    if (!draining) return done();
    // Answered like a load balancer would: this replica is going away, another one will take the retry.
    reply
      .status(503)
      .headers({ connection: "close", "retry-after": "1" })
      .send({ error: errorBody("internal_error", "This replica is shutting down; retry.", { requestId: request.id }) });
  });
  observeRequests(app, options.metrics);
  registerProbes(app, options.metrics, options.readiness);
  app.decorate("drain", () => {
    draining = true;
    return closingIdleConnections(app.server, app.close());
  });
  return app;
}
