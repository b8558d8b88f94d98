import { imageThumbnail, readTenantArtifact, type getTask } from "../../core/index.js";
import { artifactUri } from "../resources.js";
import { taskInView, type TaskView } from "./task-view.js";
import type { ToolCall, ToolContent, ToolOutcome } from "./types.js";

type TaskEnvelope = Awaited<ReturnType<typeof getTask>>;

interface RenderedArtifact {
  artifact_id: string;
  kind: string;
  content_type: string;
  byte_size: number;
  url: string;
  url_expires_at: string;
  duration_seconds?: number;
  width?: number;
  height?: number;
}

// Thumbnails go to the host as image content, so it shows what was made and the model can look at it: at most
// this many per result, each from an original of at most this size, scaled to fit this edge.
const THUMBNAILS_PER_RESULT = 4;
const THUMBNAIL_SOURCE_MAX_BYTES = 20 * 1024 * 1024;
const THUMBNAIL_EDGE = 384;

function artifactsOf(task: TaskEnvelope): RenderedArtifact[] {
  return ((task.output as { artifacts?: RenderedArtifact[] } | null)?.artifacts ?? []);
}

function describe(artifact: RenderedArtifact): string {
  const facts = [artifact.content_type, `${artifact.byte_size} bytes`];
  if (artifact.width && artifact.height) facts.push(`${artifact.width}x${artifact.height}`);
  if (artifact.duration_seconds !== undefined) facts.push(`${artifact.duration_seconds} s`);
  return `${facts.join(", ")}. Read it with resources/read, or download ${artifact.url} (valid until ${artifact.url_expires_at}); copy it to your own storage promptly.`;
}

export function artifactLink(artifact: RenderedArtifact): ToolContent {
  return {
    type: "resource_link",
    uri: artifactUri(artifact.artifact_id),
    name: artifact.artifact_id,
    title: `${artifact.kind} ${artifact.artifact_id}`,
    description: describe(artifact),
    mimeType: artifact.content_type,
    size: artifact.byte_size,
  };
}

// A thumbnail that cannot be made (an image ffmpeg cannot read) is left out: the link still leads to the image.
async function thumbnail(call: ToolCall, artifact: RenderedArtifact): Promise<ToolContent | null> {
  try {
    const stored = await readTenantArtifact(call.core, call.grant.tenantId, artifact.artifact_id, THUMBNAIL_SOURCE_MAX_BYTES);
    if (!stored.bytes) return null;
    const jpeg = await imageThumbnail(stored.bytes, THUMBNAIL_EDGE);
    return { type: "image", data: jpeg.toString("base64"), mimeType: "image/jpeg" };
  } catch (error) {
    call.core.log.warn({ err: error, artifact_id: artifact.artifact_id }, "mcp: no thumbnail for an image artifact");
    return null;
  }
}

// A task as a tool result: the task in the asked view, one resource link per artifact, and thumbnails of the
// images a finished task made.
export async function taskOutcome(call: ToolCall, task: TaskEnvelope, view: TaskView, meta?: Record<string, unknown>): Promise<ToolOutcome> {
  const artifacts = artifactsOf(task);
  const images = task.status === "succeeded" ? artifacts.filter((a) => a.kind === "image").slice(0, THUMBNAILS_PER_RESULT) : [];
  const thumbnails = (await Promise.all(images.map((a) => thumbnail(call, a)))).filter((c): c is ToolContent => c !== null);
  return { structured: taskInView(task, view), content: [...artifacts.map(artifactLink), ...thumbnails], ...(meta ? { meta } : {}) };
}
