import { buildOpenApiDocument, renderReferencePage, type Core } from "../../core/index.js";
import type { HandWrittenRoutes } from "./hand-written-route.js";

export function openApiRoutes(core: Core): HandWrittenRoutes<"getOpenApiDocument" | "getApiReference"> {
  const document = buildOpenApiDocument(core.config.publicBaseUrl);
  const page = renderReferencePage(document);
  return {
    getOpenApiDocument: { handler: async () => document },
    // The page loads nothing: its policy allows only its own inline style sheet and script (by hash).
    getApiReference: {
      handler: async (_request, reply) =>
        reply
          .type("text/html; charset=utf-8")
          .header("content-security-policy", page.contentSecurityPolicy)
          .header("x-content-type-options", "nosniff")
          .send(page.html),
    },
  };
}
