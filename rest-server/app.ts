import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { Core } from "../core/index.js";
import { registerErrorHandling } from "./plugins/errors.js";
import { registerJsonBody } from "./plugins/json-body.js";
import { requestIdFor } from "./plugins/request-id.js";
import { registerAccountRoutes } from "./routes/account-routes.js";
import { registerCapabilityRoutes } from "./routes/capability-routes.js";
import { registerHealthRoutes } from "./routes/health-routes.js";
import { registerTaskRoutes } from "./routes/task-routes.js";

export function buildRestApp(core: Core, options: { logger?: FastifyServerOptions["logger"] } = {}): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: requestIdFor,
    bodyLimit: 32 * 1024 * 1024,
  });
  app.addHook("onRequest", async (request, reply) => {
    reply.header("X-Request-Id", request.id);
  });
  registerJsonBody(app);
  registerErrorHandling(app);
  registerCapabilityRoutes(app, core);
  registerTaskRoutes(app, core);
  registerAccountRoutes(app, core);
  registerHealthRoutes(app, core);
  return app;
}
