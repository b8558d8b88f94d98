import type { FileStore } from "./file-store.js";
import type { VideoFrame } from "./media/video-frame.js";
import { downloadedInputsProblem, textProblem } from "./media/input-limits.js";
import { downloadedInputs, fetchMaterials, MaterialError, type MaterialUrls, type VideoMaterials } from "./media/video-materials.js";
import { vendorInputBounds } from "./vendors/input-limits.js";
import { capabilityOf, frameFor, materialsProblem } from "./video-input-limits.js";
import { familyVideoModel, videoAskProblem, type VideoAsk } from "./video-model-limits.js";
import type { VendorVideoModel, VideoTask } from "./vendors/video-model.js";

// The checks every emulated video vendor makes of a submission before it starts a job, in one order: the model,
// whether it does the task the inputs describe, the inputs themselves (downloaded and decoded), the controls,
// and the frame to render. Each family words the outcome in its own errors.

export type Acceptance =
  | { outcome: "accepted"; model: VendorVideoModel; task: VideoTask; materials: VideoMaterials; frame: VideoFrame }
  | { outcome: "unknown_model" }
  | { outcome: "refused"; reason: string; control?: string };

// The controls as the family's wire gives them; a family that sends a pixel size reads them off the materials.
export type AskOf = (model: VendorVideoModel, materials: VideoMaterials) => Omit<VideoAsk, "task"> | string;

// `modelId` is the id the vendor's call names, looked up among the family's own models (emulator/vendors/);
// `texts` are the call's texts by the vendor's field names, held to the model's published lengths.
export async function acceptVideoRequest(
  files: FileStore,
  family: string,
  modelId: unknown,
  urls: MaterialUrls,
  askOf: AskOf,
  texts: Readonly<Record<string, string | undefined>> = {},
): Promise<Acceptance> {
  const model = familyVideoModel(family, modelId);
  if (model === undefined) return { outcome: "unknown_model" };
  const task = capabilityOf(urls);
  if (!model.tasks.includes(task)) return { outcome: "refused", reason: `${model.id} does not serve ${task}` };
  const bounds = vendorInputBounds(family, model.id);
  const textRefusal = textProblem(bounds, texts);
  if (textRefusal !== null) return { outcome: "refused", reason: textRefusal };
  let materials: VideoMaterials;
  try {
    materials = await fetchMaterials(files, urls);
  } catch (error) {
    if (error instanceof MaterialError) return { outcome: "refused", reason: error.message };
    throw error;
  }
  const inputRefusal = downloadedInputsProblem(bounds, downloadedInputs(materials));
  if (inputRefusal !== null) return { outcome: "refused", reason: inputRefusal };
  const asked = askOf(model, materials);
  if (typeof asked === "string") return { outcome: "refused", reason: asked };
  const ask = { ...asked, task };
  const problem = videoAskProblem(model, ask) ?? materialsRefusal(model, task, materials, ask.durationSeconds);
  if (problem !== null) return { outcome: "refused", ...problem };
  const frame = frameFor(ask.resolution, ask.aspectRatio, materials);
  if (frame === undefined) return { outcome: "refused", reason: "an adaptive ratio needs an image or a video to follow", control: "aspectRatio" };
  return { outcome: "accepted", model, task, materials, frame };
}

function materialsRefusal(model: VendorVideoModel, task: VideoTask, materials: VideoMaterials, seconds: number) {
  const reason = materialsProblem(model, task, materials, seconds);
  return reason === null ? null : { reason };
}
