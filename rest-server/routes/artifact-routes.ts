import type { FastifyInstance } from "fastify";
import { openSignedArtifact, type Core } from "../../core/index.js";

export function registerArtifactRoutes(app: FastifyInstance, core: Core): void {
  // The signed download URL of an artifact (the "CDN address" of SPEC.md): the signature is the credential.
  // GET and HEAD, with Range and conditional requests (core/artifacts/http-response.ts).
  for (const method of ["GET", "HEAD"] as const) {
    app.route<{ Params: { artifact_id: string }; Querystring: { expires?: string; signature?: string } }>({
      method,
      url: "/v1/artifacts/:artifact_id/content",
      exposeHeadRoute: false,
      handler: async (request, reply) => {
        const header = (name: string) => {
          const value = request.headers[name];
          return Array.isArray(value) ? value.join(", ") : value;
        };
        const answer = await openSignedArtifact(core, request.params.artifact_id, request.query.expires ?? "", request.query.signature ?? "", {
          method,
          range: header("range"),
          ifRange: header("if-range"),
          ifNoneMatch: header("if-none-match"),
          ifModifiedSince: header("if-modified-since"),
        });
        reply.status(answer.status).headers(answer.headers);
        return answer.stream ? reply.send(answer.stream) : reply.send();
      },
    });
  }
}
