import type { FastifyInstance } from "fastify";
import { checkReadiness, REQUEST_BODY_MAX_BYTES, type Core } from "../core/index.js";
import { createHttpFace } from "../http-face/face.js";
import { registerErrorHandling } from "./plugins/errors.js";
import { registerJsonBody } from "./plugins/json-body.js";
import { frameworkErrors, PATH_PARAMETER_MAX_CHARS, registerUrlText } from "./plugins/url-text.js";
import { clientErrorHandler } from "./plugins/client-errors.js";
import { registerCors } from "./plugins/cors.js";
import { registerRequestTelemetry } from "./plugins/request-telemetry.js";
import { registerCapabilityRoutes } from "./routes/capability-routes.js";
import { registerOperationRoutes } from "./routes/operation-routes.js";

export interface RestAppOptions {
  // Tests drop keep-alive sockets at close; a deployment lets in-flight requests finish.
  forceCloseConnections?: boolean;
}

export function buildRestApp(core: Core, options: RestAppOptions = {}): FastifyInstance {
  // Readiness needs the database, every migration, and a worker taking jobs: a replica that admits work nobody
  // would run is not ready.
  const app = createHttpFace({
    log: core.log,
    metrics: core.metrics,
    readiness: () => checkReadiness(core, { workers: true }),
    server: {
      forceCloseConnections: options.forceCloseConnections ?? "idle",
      bodyLimit: REQUEST_BODY_MAX_BYTES,
      frameworkErrors,
      clientErrorHandler,
      routerOptions: { maxParamLength: PATH_PARAMETER_MAX_CHARS },
    },
  });
  registerRequestTelemetry(app);
  registerCors(app, core);
  registerJsonBody(app);
  registerErrorHandling(app);
  registerUrlText(app);
  registerCapabilityRoutes(app, core);
  registerOperationRoutes(app, core);
  return app;
}
