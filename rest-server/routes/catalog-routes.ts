import type { FastifyInstance } from "fastify";
import { catalog, type Core } from "../../core/index.js";
import { requireAuth } from "../plugins/auth.js";

export function registerCatalogRoutes(app: FastifyInstance, core: Core): void {
  const auth = { onRequest: requireAuth(core, "catalog") };
  const models = async () => catalog.modelList(core.isFamilyLive);
  app.get("/v1/models", auth, models);
  app.get("/v1/catalog/models", auth, models);
  app.get<{ Params: { model: string } }>("/v1/catalog/models/:model", auth, async (request) =>
    catalog.modelDetail(request.params.model, core.isFamilyLive),
  );
  app.get("/v1/catalog/capabilities", auth, async () => catalog.capabilityList());
  app.get<{ Params: { capability: string } }>("/v1/catalog/capabilities/:capability", auth, async (request) =>
    catalog.capabilityDetail(request.params.capability, core.isFamilyLive),
  );
}
