import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  cancelTask,
  findTaskByIdempotencyKey,
  getTask,
  invalidRequest,
  failure,
  isIdempotencyKeyLookup,
  listTaskAssets,
  listTasksPage,
  type Core,
} from "../../core/index.js";
import { principalOf, requireAuth } from "../plugins/auth.js";
import { afterPreferredWait } from "./prefer-wait.js";

const cancelBody = z.object({ reason: z.string().max(1000).optional() }).strict().optional();

export function registerTaskRoutes(app: FastifyInstance, core: Core): void {
  const auth = requireAuth(core, "tasks");

  app.get("/v1/tasks", { onRequest: auth }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const tenantId = principalOf(request).tenantId;
    return isIdempotencyKeyLookup(query) ? findTaskByIdempotencyKey(core, tenantId, query) : listTasksPage(core, tenantId, query);
  });

  app.get<{ Params: { task_id: string } }>("/v1/tasks/:task_id", { onRequest: auth }, async (request, reply) =>
    afterPreferredWait(core, request, reply, await getTask(core, principalOf(request).tenantId, request.params.task_id)),
  );

  app.get<{ Params: { task_id: string } }>("/v1/tasks/:task_id/assets", { onRequest: auth }, async (request) =>
    listTaskAssets(core, principalOf(request).tenantId, request.params.task_id),
  );

  app.post<{ Params: { task_id: string } }>("/v1/tasks/:task_id/cancel", { onRequest: auth }, async (request, reply) => {
    const body = cancelBody.safeParse(request.body);
    if (!body.success) {
      throw invalidRequest(body.error.issues.map((i) => failure(i.path as (string | number)[], i.message)));
    }
    const result = await cancelTask(core, principalOf(request).tenantId, request.params.task_id, body.data?.reason);
    return reply.status(result.outcome === "requested" ? 202 : 200).send(result.task);
  });
}
