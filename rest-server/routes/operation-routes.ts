import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { OPERATIONS, StatusAnswer, type Core, type Operation } from "../../core/index.js";
import { principalOf, requireAuth, requireAuthentication } from "../plugins/auth.js";
import { artifactRoutes } from "./artifact-routes.js";
import { consoleRoutes } from "./console-routes.js";
import type { HandWrittenOperationId, HandWrittenRoute, HandWrittenRoutes, RouteRequest } from "./hand-written-route.js";
import { openApiRoutes } from "./openapi-routes.js";
import { markWaitApplied, preferredWait } from "./prefer-wait.js";
import { quoteRoutes } from "./quote-routes.js";
import { taskEventRoutes } from "./task-event-routes.js";
import { voiceSampleRoutes } from "./voice-sample-routes.js";

// An operation whose answer documents Preference-Applied honours Prefer: wait=N (GET /v1/tasks/{task_id}).
function honoursPreferWait(operation: Operation): boolean {
  return Object.values(operation.responses).some((response) => response.headers?.includes("Preference-Applied"));
}

// An operation with a use case is the same handler for all: authenticated for its area, answering with its first
// documented status unless the use case names another.
function useCaseRoute(core: Core, operation: Operation, run: NonNullable<Operation["run"]>): HandWrittenRoute {
  if (!operation.area || operation.area === "capability") throw new Error(`${operation.operationId} has a use case but no fixed area`);
  const status = Number(Object.keys(operation.responses)[0]);
  const waits = honoursPreferWait(operation);
  return {
    handler: async (request, reply) => {
      const wait = waits ? preferredWait(request, reply) : undefined;
      const answer = await run(core, {
        tenantId: principalOf(request).tenantId,
        params: request.params,
        query: request.query,
        body: request.body,
        wait,
      });
      if (wait) markWaitApplied(reply, wait);
      return answer instanceof StatusAnswer ? reply.status(answer.status).send(answer.body) : reply.status(status).send(answer);
    },
  };
}

// The row's area says who may call: an API key allowed that area, any API key when the area depends on the body
// (the quote), anyone when there is none (signed downloads, pages).
function authenticationFor(core: Core, area: Operation["area"]): { onRequest?: onRequestAsyncHookHandler } {
  if (area === null) return {};
  return { onRequest: area === "capability" ? requireAuthentication(core) : requireAuth(core, area) };
}

// One loop over the operations table registers every route of the REST server but the task-creating ones
// (capability-routes.ts) and the probes, which every process's face serves (http-face/probes.ts): a route the
// table lacks cannot be served, and a row nobody answers stops the server at start.
export function registerOperationRoutes(app: FastifyInstance, core: Core): void {
  const handWritten: HandWrittenRoutes = {
    ...taskEventRoutes(app, core),
    ...quoteRoutes(core),
    ...artifactRoutes(core),
    ...voiceSampleRoutes(core),
    ...openApiRoutes(core),
    ...consoleRoutes(core),
  };
  // Each handler is typed for its row's path parameters, and is registered below at the URL made of that row's path,
  // where Fastify hands it exactly those: from here on, any row's route alike.
  const byId = new Map<string, HandWrittenRoute>(Object.entries(handWritten as Record<HandWrittenOperationId, HandWrittenRoute>));
  for (const operation of OPERATIONS) {
    if (operation.kind === "probe") continue;
    const route = operation.run ? useCaseRoute(core, operation, operation.run) : byId.get(operation.operationId);
    if (!route) throw new Error(`${operation.operationId} is in the operations table, but the REST server has no handler for it`);
    const url = operation.path.replace(/\{(\w+)\}/g, ":$1");
    const authentication = authenticationFor(core, operation.area);
    app.route<RouteRequest>({ method: operation.method, url, ...authentication, handler: route.handler, exposeHeadRoute: !route.head });
    if (route.head) app.route<RouteRequest>({ method: "HEAD", url, ...authentication, handler: route.head });
  }
}
