import type { FastifyInstance } from "fastify";
import { creditBalanceView, openSignedArtifact, type Core } from "../../core/index.js";
import { principalOf, requireAuth } from "../plugins/auth.js";

export function registerAccountRoutes(app: FastifyInstance, core: Core): void {
  app.get("/v1/credits", { onRequest: requireAuth(core, "credits") }, async (request) =>
    creditBalanceView(core, principalOf(request).tenantId),
  );

  // The signed download URL of an artifact (the "CDN address" of SPEC.md): the signature is the credential.
  app.get<{ Params: { artifact_id: string }; Querystring: { expires?: string; signature?: string } }>(
    "/v1/artifacts/:artifact_id/content",
    async (request, reply) => {
      const artifact = await openSignedArtifact(
        core,
        request.params.artifact_id,
        request.query.expires ?? "",
        request.query.signature ?? "",
      );
      return reply
        .header("content-type", artifact.contentType)
        .header("content-length", artifact.size)
        .header("etag", `"${artifact.sha256}"`)
        .header("cache-control", "private, max-age=3600")
        .send(artifact.stream);
    },
  );
}
