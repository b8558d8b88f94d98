import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type ReadResourceResult } from "@modelcontextprotocol/server";
import { readTenantArtifact, ServiceError, type Core, type Grant, type Scope } from "../core/index.js";

// Artifacts as MCP resources, for hosts that cannot reach the REST host their signed URLs point at: a task
// result links each artifact as svc://artifacts/<artifact_id>, and resources/read returns its bytes.
const PREFIX = "svc://artifacts/";

// A JSON-RPC message carries the bytes base64-encoded (a third larger); larger artifacts are downloaded from
// their signed URL, which the refusal gives.
export const RESOURCE_MAX_BYTES = 16 * 1024 * 1024;

export function artifactUri(artifactId: string): string {
  return `${PREFIX}${artifactId}`;
}

export const ARTIFACT_TEMPLATE = {
  uriTemplate: `${PREFIX}{artifact_id}`,
  name: "artifact",
  title: "A stored artifact",
  description: "The bytes of one of your artifacts (task outputs and uploads), by artifact_id.",
};

// Artifacts reach a caller through its tasks or its uploads: either scope reads them.
const READ_SCOPES: readonly Scope[] = ["tasks:read", "assets:write"];

export async function readArtifactResource(core: Core, grant: Grant, uri: string): Promise<ReadResourceResult> {
  if (!READ_SCOPES.some((scope) => grant.scopes.includes(scope))) {
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Reading artifacts needs the scope tasks:read (or assets:write).`, {
      missing_scopes: ["tasks:read"],
    });
  }
  const artifactId = uri.startsWith(PREFIX) ? uri.slice(PREFIX.length) : "";
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(artifactId)) throw new ResourceNotFoundError(uri);
  try {
    const artifact = await readTenantArtifact(core, grant.tenantId, artifactId, RESOURCE_MAX_BYTES);
    if (!artifact.bytes) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Artifact ${artifactId} is ${artifact.byteSize} bytes, more than the ${RESOURCE_MAX_BYTES} resources/read returns; download it from ${artifact.url} (valid until ${artifact.urlExpiresAt}).`,
        { uri, url: artifact.url, byte_size: artifact.byteSize },
      );
    }
    return { contents: [{ uri, mimeType: artifact.contentType, blob: artifact.bytes.toString("base64") }] };
  } catch (error) {
    if (error instanceof ServiceError && error.code === "artifact_not_found") throw new ResourceNotFoundError(uri);
    throw error;
  }
}
