import type { FastifyInstance } from "fastify";
import { buildOpenApiDocument, renderReferencePage, type Core } from "../../core/index.js";

export function registerOpenApiRoutes(app: FastifyInstance, core: Core): void {
  const document = buildOpenApiDocument(core.config.publicBaseUrl);
  const page = renderReferencePage(document);
  app.get("/v1/openapi.json", async () => document);
  app.get("/v1/docs", async (_request, reply) => reply.type("text/html; charset=utf-8").send(page));
}
