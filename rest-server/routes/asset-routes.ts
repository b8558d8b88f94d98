import type { FastifyInstance } from "fastify";
import { uploadAsset, type Core } from "../../core/index.js";
import { principalOf, requireAuth } from "../plugins/auth.js";

// POST /v1/assets: upload media once, then reference it as {type: "artifact", artifact_id} in any media input.
export function registerAssetRoutes(app: FastifyInstance, core: Core): void {
  app.post("/v1/assets", { onRequest: requireAuth(core, "assets") }, async (request, reply) =>
    reply.status(201).send(await uploadAsset(core, principalOf(request).tenantId, request.body)),
  );
}
