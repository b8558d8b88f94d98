import type { ResourceLink } from "@modelcontextprotocol/server";
import type { ToolOutcome } from "./types.js";

interface RenderedArtifact {
  artifact_id: string;
  kind: string;
  content_type: string;
  byte_size: number;
  url: string;
  url_expires_at: string;
}

// A task envelope as a tool result: the envelope itself, plus one resource link per artifact of its output so a
// host can fetch the bytes from their signed URL without the model ever carrying base64.
export function taskOutcome(task: { output: Record<string, unknown> | null }, meta?: Record<string, unknown>): ToolOutcome {
  const artifacts = (task.output?.artifacts as RenderedArtifact[] | undefined) ?? [];
  return { structured: task as Record<string, unknown>, links: artifacts.map(artifactLink), ...(meta ? { meta } : {}) };
}

export function artifactLink(artifact: RenderedArtifact): ResourceLink {
  return {
    type: "resource_link",
    uri: artifact.url,
    name: artifact.artifact_id,
    title: `${artifact.kind} artifact ${artifact.artifact_id}`,
    description: `Signed download URL, valid until ${artifact.url_expires_at}; copy the file to your own storage promptly.`,
    mimeType: artifact.content_type,
    size: artifact.byte_size,
  };
}
