import type { FastifyInstance } from "fastify";
import {
  createSigningKey,
  getSigningKey,
  listSigningKeysPage,
  redeliverCallback,
  retireSigningKey,
  rotateSigningKey,
  type Core,
} from "../../core/index.js";
import { principalOf, requireAuth } from "../plugins/auth.js";

// Callback signing keys (area `callbacks`) and the redelivery of a task's callback (area `tasks`).
export function registerCallbackRoutes(app: FastifyInstance, core: Core): void {
  const keys = { onRequest: requireAuth(core, "callbacks") };

  app.post("/v1/callback-signing-keys", keys, async (request, reply) =>
    reply.status(201).send(await createSigningKey(core, principalOf(request).tenantId, request.body)),
  );

  app.get("/v1/callback-signing-keys", keys, async (request) =>
    listSigningKeysPage(core, principalOf(request).tenantId, request.query as Record<string, unknown>),
  );

  app.get<{ Params: { key_id: string } }>("/v1/callback-signing-keys/:key_id", keys, async (request) =>
    getSigningKey(core, principalOf(request).tenantId, request.params.key_id),
  );

  app.post<{ Params: { key_id: string } }>("/v1/callback-signing-keys/:key_id/rotate", keys, async (request) =>
    rotateSigningKey(core, principalOf(request).tenantId, request.params.key_id, request.body),
  );

  app.post<{ Params: { key_id: string } }>("/v1/callback-signing-keys/:key_id/retire", keys, async (request) =>
    retireSigningKey(core, principalOf(request).tenantId, request.params.key_id),
  );

  app.post<{ Params: { task_id: string } }>(
    "/v1/tasks/:task_id/callback/redeliver",
    { onRequest: requireAuth(core, "tasks") },
    async (request, reply) => reply.status(202).send(await redeliverCallback(core, principalOf(request).tenantId, request.params.task_id)),
  );
}
