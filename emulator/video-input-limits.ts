import type { VideoModel } from "../core/catalog/video-models.js";
import { videoDimensions, type VideoDimensions } from "../core/catalog/video-dimensions.js";
import { sourcePicture, type MaterialUrls, type VideoMaterials } from "./media/video-materials.js";

// What the emulated vendors accept in the way of input media, from the service's catalog like every other limit:
// which kind of task the inputs make, whether the model takes them, and the frame the clip is rendered at.

// The task the inputs describe, in the service's capability names: a source video is edited or extended, else
// references compose a clip, a last frame closes one, a first frame opens one, and nothing at all is text to video.
export function capabilityOf(urls: MaterialUrls): string {
  if (urls.source) return urls.source.rework.operation === "edit" ? "video_edit" : "video_extend";
  if (urls.references.length > 0) return "reference_to_video";
  if (urls.lastFrame !== undefined) return "frames_to_video";
  if (urls.firstFrame !== undefined) return "image_to_video";
  return "text_to_video";
}

function referenceProblem(model: VideoModel, materials: VideoMaterials): string | null {
  const limits = model.constraints.references;
  const references = materials.references;
  if (references.length > limits.max_total) return `${model.id} takes at most ${limits.max_total} references`;
  for (const kind of ["image", "video", "audio"] as const) {
    const count = references.filter((r) => r.kind === kind).length;
    if (count > limits.max_per_kind[kind]) return `${model.id} takes at most ${limits.max_per_kind[kind]} ${kind} references`;
  }
  if (!limits.reference_voice && references.some((r) => r.voice)) return `${model.id} takes no reference voices`;
  return null;
}

// What the vendor refuses about the inputs of a request for `durationSeconds`; null when it can be made.
export function materialsProblem(model: VideoModel, capability: string, materials: VideoMaterials, durationSeconds: number): string | null {
  const c = model.constraints;
  if (capability === "frames_to_video") {
    const mode = materials.firstFrame ? "first_and_last" : "last_only";
    if (!c.frame_modes.includes(mode)) return `${model.id} does not generate ${mode.replaceAll("_", " ")} frames`;
  }
  if (materials.drivingAudio && !c.driving_audio) return `${model.id} takes no driving audio`;
  const references = referenceProblem(model, materials);
  if (references !== null) return references;
  const rework = materials.source?.rework;
  if (rework?.operation === "edit" && !c.audio_settings.includes(rework.audioSetting)) {
    return `audio_setting ${rework.audioSetting} is not one of ${c.audio_settings.join(", ")}`;
  }
  if (rework?.operation === "extend") {
    const sourceSeconds = materials.source?.media.durationSeconds ?? 0;
    if (durationSeconds <= sourceSeconds) return `duration ${durationSeconds} does not exceed the source's ${sourceSeconds} s`;
    if (durationSeconds > (c.extend_max_duration ?? 0)) return `${model.id} extends to at most ${c.extend_max_duration ?? 0} s`;
  }
  return null;
}

// The frame a clip is rendered at: the tier at the asked ratio, or (null) at the ratio of the source picture;
// undefined when the ratio should follow a source that there is not.
export function frameFor(resolution: string, aspectRatio: string | null, materials: VideoMaterials): VideoDimensions | undefined {
  if (aspectRatio !== null) return videoDimensions(resolution, aspectRatio);
  const picture = sourcePicture(materials);
  return picture ? videoDimensions(resolution, `${picture.width}:${picture.height}`) : undefined;
}
