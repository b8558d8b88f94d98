import { openSignedArtifact, type Core } from "../../core/index.js";
import type { HandWrittenRoutes, RouteHandler } from "./hand-written-route.js";

// The signed download URL of an artifact (the "CDN address" of SPEC.md): the signature is the credential.
// GET and HEAD, with Range and conditional requests (core/artifacts/http-response.ts).
export function artifactRoutes(core: Core): HandWrittenRoutes<"downloadArtifact"> {
  const download =
    (method: "GET" | "HEAD"): RouteHandler =>
    async (request, reply) => {
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value.join(", ") : value;
      };
      const answer = await openSignedArtifact(core, request.params.artifact_id!, request.query.expires ?? "", request.query.signature ?? "", {
        method,
        range: header("range"),
        ifRange: header("if-range"),
        ifNoneMatch: header("if-none-match"),
        ifModifiedSince: header("if-modified-since"),
      });
      reply.status(answer.status).headers(answer.headers);
      return answer.stream ? reply.send(answer.stream) : reply.send();
    };
  return { downloadArtifact: { handler: download("GET"), head: download("HEAD") } };
}
