import { openSignedArtifact, type Core } from "../../core/index.js";
import { downloadRoute } from "./download-route.js";
import type { HandWrittenRoutes } from "./hand-written-route.js";

// The signed download URL of an artifact (the "CDN address" of SPEC.md): the signature is the credential.
// GET and HEAD, with Range and conditional requests (core/artifacts/http-response.ts).
export function artifactRoutes(core: Core): HandWrittenRoutes<"downloadArtifact"> {
  return {
    downloadArtifact: downloadRoute((request, download) =>
      openSignedArtifact(core, request.params.artifact_id, request.query.expires ?? "", request.query.signature ?? "", download),
    ),
  };
}
