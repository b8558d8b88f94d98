import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Core } from "../core/index.js";
import { registerErrorHandling } from "./plugins/errors.js";
import { registerJsonBody } from "./plugins/json-body.js";
import { registerRateLimit } from "./plugins/rate-limit.js";
import { frameworkErrors, PATH_PARAMETER_MAX_CHARS, registerUrlText } from "./plugins/url-text.js";
import { clientErrorHandler } from "./plugins/client-errors.js";
import { registerCors } from "./plugins/cors.js";
import { registerRequestTelemetry, requestLogController } from "./plugins/request-telemetry.js";
import { requestIdFor } from "./plugins/request-id.js";
import { registerArtifactRoutes } from "./routes/artifact-routes.js";
import { registerCapabilityRoutes } from "./routes/capability-routes.js";
import { registerHealthRoutes } from "./routes/health-routes.js";
import { registerOpenApiRoutes } from "./routes/openapi-routes.js";
import { registerOperationRoutes } from "./routes/operation-routes.js";
import { registerQuoteRoutes } from "./routes/quote-routes.js";
import { registerTaskEventRoutes } from "./routes/task-event-routes.js";

declare module "fastify" {
  interface FastifyInstance {
    registeredRoutes: { method: string; url: string }[];
  }
}

export interface RestAppOptions {
  // Tests drop keep-alive sockets at close; a deployment lets in-flight requests finish.
  forceCloseConnections?: boolean;
}

export function buildRestApp(core: Core, options: RestAppOptions = {}): FastifyInstance {
  const app = Fastify({
    // The process's JSON logger (core.log): every line about a request carries its request_id.
    loggerInstance: core.log as FastifyBaseLogger,
    logController: requestLogController(),
    forceCloseConnections: options.forceCloseConnections ?? "idle",
    genReqId: requestIdFor,
    bodyLimit: 32 * 1024 * 1024,
    frameworkErrors,
    clientErrorHandler,
    routerOptions: { maxParamLength: PATH_PARAMETER_MAX_CHARS },
  });
  // Every route the server registers, so tests can hold the OpenAPI document to the truth.
  const routes: { method: string; url: string }[] = [];
  app.decorate("registeredRoutes", routes);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) if (method !== "HEAD") routes.push({ method, url: route.url });
  });
  app.addHook("onRequest", async (request, reply) => {
    reply.header("X-Request-Id", request.id);
  });
  registerRequestTelemetry(app, core);
  registerCors(app, core);
  registerJsonBody(app);
  registerErrorHandling(app);
  registerUrlText(app);
  registerRateLimit(app, core);
  registerCapabilityRoutes(app, core);
  registerTaskEventRoutes(app, core);
  registerQuoteRoutes(app, core);
  registerOperationRoutes(app, core);
  registerArtifactRoutes(app, core);
  registerHealthRoutes(app, core);
  registerOpenApiRoutes(app, core);
  return app;
}
