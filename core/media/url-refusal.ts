import { ServiceError } from "../errors/index.js";

// What a caller is told when a media URL cannot be used: the rule it broke, and how to send the media instead.
// Local files (a laptop's path, a private host) reach the service as an upload referenced by its artifact id.
const UPLOAD_HINT =
  'To send local or private media, upload it with POST /v1/assets (MCP tool svc.assets.upload) and pass {"type": "artifact", "artifact_id": "art_…"} instead.';

export function refusedMediaUrl(param: string, path: (string | number)[], reason: string): ServiceError {
  return new ServiceError("invalid_request", `The media URL at ${param} ${reason}. ${UPLOAD_HINT}`, {
    param,
    details: {
      errors: [{ loc: path, param, reason }],
      recovery: { action: "upload_asset", requires_input_change: true },
    },
  });
}

// The service's own signed artifact URL (`${publicBaseUrl}/v1/artifacts/{id}/content?...`): its artifact id, or
// null for any other URL. Such a URL expires within a day while a task's input is kept, so it is refused with
// the durable reference to send instead (docs/decisions.md).
export function ownArtifactId(text: string, publicBaseUrl: string): string | null {
  let url: URL;
  let base: URL;
  try {
    url = new URL(text);
    base = new URL(publicBaseUrl);
  } catch {
    return null;
  }
  if (url.origin !== base.origin) return null;
  const prefix = base.pathname.replace(/\/+$/, "");
  const match = /^\/v1\/artifacts\/([A-Za-z0-9_-]+)\/content$/.exec(url.pathname.slice(prefix.length));
  if (!url.pathname.startsWith(prefix) || !match) return null;
  return match[1] as string;
}

export function ownArtifactUrlRefusal(param: string, path: (string | number)[], artifactId: string): ServiceError {
  const reference = { type: "artifact", artifact_id: artifactId };
  return new ServiceError(
    "invalid_request",
    `The media URL at ${param} is this service's own signed artifact URL, which expires; send ${JSON.stringify(reference)} instead.`,
    {
      param,
      details: {
        errors: [{ loc: path, param, reason: "is a signed artifact URL of this service" }],
        recovery: { action: "use_artifact_reference", requires_input_change: true, replacement: reference },
      },
    },
  );
}
