import type { VideoModel } from "../core/catalog/video-models.js";
import type { VideoDimensions } from "../core/catalog/video-dimensions.js";
import type { FileStore } from "./file-store.js";
import { fetchMaterials, MaterialError, type MaterialUrls, type VideoMaterials } from "./media/video-materials.js";
import { capabilityOf, frameFor, materialsProblem } from "./video-input-limits.js";
import { isFamilyVideoModel, videoAskProblem, videoModel, type VideoAsk } from "./video-model-limits.js";

// The checks every emulated video vendor makes of a submission before it starts a job, in one order: the model,
// whether it does the task the inputs describe, the inputs themselves (downloaded and decoded), the controls,
// and the frame to render. Each family words the outcome in its own errors.

export type Acceptance =
  | { outcome: "accepted"; model: VideoModel; capability: string; materials: VideoMaterials; frame: VideoDimensions }
  | { outcome: "unknown_model" }
  | { outcome: "refused"; reason: string; control?: string };

// The controls as the family's wire gives them; a family that sends a pixel size reads them off the materials.
export type AskOf = (model: VideoModel, materials: VideoMaterials) => Omit<VideoAsk, "capability"> | string;

export async function acceptVideoRequest(files: FileStore, family: string, modelId: unknown, urls: MaterialUrls, askOf: AskOf): Promise<Acceptance> {
  if (!isFamilyVideoModel(family, modelId)) return { outcome: "unknown_model" };
  const capability = capabilityOf(urls);
  const model = videoModel(family, modelId, capability);
  if (model === undefined) return { outcome: "refused", reason: `${String(modelId)} does not serve ${capability}` };
  let materials: VideoMaterials;
  try {
    materials = await fetchMaterials(files, urls);
  } catch (error) {
    if (error instanceof MaterialError) return { outcome: "refused", reason: error.message };
    throw error;
  }
  const asked = askOf(model, materials);
  if (typeof asked === "string") return { outcome: "refused", reason: asked };
  const ask = { ...asked, capability };
  const problem = videoAskProblem(model, ask) ?? materialsRefusal(model, capability, materials, ask.durationSeconds);
  if (problem !== null) return { outcome: "refused", ...problem };
  const frame = frameFor(ask.resolution, ask.aspectRatio, materials);
  if (frame === undefined) return { outcome: "refused", reason: "an adaptive ratio needs an image or a video to follow", control: "aspectRatio" };
  return { outcome: "accepted", model, capability, materials, frame };
}

function materialsRefusal(model: VideoModel, capability: string, materials: VideoMaterials, seconds: number) {
  const reason = materialsProblem(model, capability, materials, seconds);
  return reason === null ? null : { reason };
}
