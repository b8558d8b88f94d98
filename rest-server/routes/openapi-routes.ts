import type { FastifyInstance } from "fastify";
import { buildOpenApiDocument, renderReferencePage, type Core } from "../../core/index.js";

export function registerOpenApiRoutes(app: FastifyInstance, core: Core): void {
  const document = buildOpenApiDocument(core.config.publicBaseUrl);
  const page = renderReferencePage(document);
  app.get("/v1/openapi.json", async () => document);
  // The page loads nothing: its policy allows only its own inline style sheet and script (by hash).
  app.get("/v1/docs", async (_request, reply) =>
    reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", page.contentSecurityPolicy)
      .header("x-content-type-options", "nosniff")
      .send(page.html),
  );
}
