import { imageThumbnail, isTerminal, readTenantArtifact, type getTask } from "../../core/index.js";
import { artifactUri } from "../resources.js";
import { styledNames } from "./tool-names.js";
import { taskInView, type TaskView } from "./task-view.js";
import { MAX_WAIT_SECONDS } from "./task-wait.js";
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

// The facts a host shows beside the link; the signed URL and its expiry are in the task's output.artifacts, and the
// server instructions say how to read or download an artifact.
function describe(artifact: RenderedArtifact): string {
  const facts = [artifact.kind, `${artifact.byte_size} bytes`];
  if (artifact.width && artifact.height) facts.push(`${artifact.width}x${artifact.height}`);
  if (artifact.duration_seconds !== undefined) facts.push(`${artifact.duration_seconds} s`);
  return facts.join(", ");
}

export function artifactLink(artifact: RenderedArtifact): ToolContent {
  return {
    type: "resource_link",
    uri: artifactUri(artifact.artifact_id),
    name: artifact.artifact_id,
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

// What to do next with a task that has not ended, beside the answer of the call that created it.
function pollingHint(call: ToolCall, task: TaskEnvelope): ToolContent {
  const text =
    `Task ${task.task_id} is ${task.status}. Poll svc.tasks.get with this task_id (wait_seconds up to ${MAX_WAIT_SECONDS} ` +
    "waits for you) until it is succeeded, failed or canceled; queued and running are not failures, so never resubmit it.";
  return { type: "text", text: styledNames(text, call.toolNames) };
}

export interface OutcomeOptions {
  view?: TaskView;
  // Thumbnails of a succeeded task's images: sent by the answer that sees the task end, and when asked for.
  thumbnails?: boolean;
  // A create's answer, which says how to follow the task.
  created?: boolean;
  meta?: Record<string, unknown>;
}

// A task as a tool result: the task in the asked view, one resource link per artifact, what to do next after a
// create, and thumbnails of the images when the caller is to see them.
export async function taskOutcome(call: ToolCall, task: TaskEnvelope, options: OutcomeOptions = {}): Promise<ToolOutcome> {
  const artifacts = artifactsOf(task);
  const images = options.thumbnails && task.status === "succeeded" ? artifacts.filter((a) => a.kind === "image").slice(0, THUMBNAILS_PER_RESULT) : [];
  const thumbnails = (await Promise.all(images.map((a) => thumbnail(call, a)))).filter((c): c is ToolContent => c !== null);
  const hint = options.created && !isTerminal(task.status) ? [pollingHint(call, task)] : [];
  return {
    structured: taskInView(task, options.view ?? "summary"),
    content: [...hint, ...artifacts.map(artifactLink), ...thumbnails],
    ...(options.meta ? { meta: options.meta } : {}),
  };
}
