import { videoFrame, type VideoFrame } from "./media/video-frame.js";
import { sourcePicture, type MaterialUrls, type VideoMaterials } from "./media/video-materials.js";
import type { VendorVideoModel, VideoTask } from "./vendors/video-model.js";

// What the emulated vendors accept in the way of input media, from each vendor's own description of its models:
// which kind of task the inputs make, whether the model takes them, and the frame the clip is rendered at.

// The task the inputs describe: a source video is edited or extended, else references compose a clip, a last
// frame closes one, a first frame opens one, and nothing at all is text to video.
export function capabilityOf(urls: MaterialUrls): VideoTask {
  if (urls.source) return urls.source.rework.operation === "edit" ? "video_edit" : "video_extend";
  if (urls.references.length > 0) return "reference_to_video";
  if (urls.lastFrame !== undefined) return "frames_to_video";
  if (urls.firstFrame !== undefined) return "image_to_video";
  return "text_to_video";
}

function referenceProblem(model: VendorVideoModel, materials: VideoMaterials): string | null {
  const limits = model.references;
  const references = materials.references;
  if (references.length > limits.maxTotal) return `${model.id} takes at most ${limits.maxTotal} references`;
  for (const kind of ["image", "video", "audio"] as const) {
    const count = references.filter((r) => r.kind === kind).length;
    if (count > limits.maxPerKind[kind]) return `${model.id} takes at most ${limits.maxPerKind[kind]} ${kind} references`;
  }
  if (!limits.voices && references.some((r) => r.voice)) return `${model.id} takes no reference voices`;
  return null;
}

// What the vendor refuses about the inputs of a request for `durationSeconds`; null when it can be made.
export function materialsProblem(model: VendorVideoModel, task: VideoTask, materials: VideoMaterials, durationSeconds: number): string | null {
  if (task === "frames_to_video") {
    const mode = materials.firstFrame ? "first_and_last" : "last_only";
    if (!model.frameModes.includes(mode)) return `${model.id} does not generate ${mode.replaceAll("_", " ")} frames`;
  }
  if (materials.drivingAudio && !model.drivingAudio) return `${model.id} takes no driving audio`;
  const references = referenceProblem(model, materials);
  if (references !== null) return references;
  const rework = materials.source?.rework;
  if (rework?.operation === "edit" && !model.editAudio.includes(rework.audioSetting)) {
    return `audio_setting ${rework.audioSetting} is not one of ${model.editAudio.join(", ")}`;
  }
  if (rework?.operation === "extend") {
    const sourceSeconds = materials.source?.media.durationSeconds ?? 0;
    if (durationSeconds <= sourceSeconds) return `duration ${durationSeconds} does not exceed the source's ${sourceSeconds} s`;
    if (durationSeconds > (model.extendMaxSeconds ?? 0)) return `${model.id} extends to at most ${model.extendMaxSeconds ?? 0} s`;
  }
  return null;
}

// The frame a clip is rendered at: the tier at the asked ratio, or (null) at the ratio of the source picture;
// undefined when the ratio should follow a source that there is not.
export function frameFor(resolution: string, aspectRatio: string | null, materials: VideoMaterials): VideoFrame | undefined {
  if (aspectRatio !== null) return videoFrame(resolution, aspectRatio);
  const picture = sourcePicture(materials);
  return picture ? videoFrame(resolution, `${picture.width}:${picture.height}`) : undefined;
}
