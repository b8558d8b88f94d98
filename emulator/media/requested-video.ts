import { renderEditedVideo } from "./video-edit-render.js";
import { renderExtendedVideo } from "./video-extend-render.js";
import { renderVideo, type VideoRenderRequest } from "./video-render.js";

// Renders whatever a video job asked for: an edit or an extension of its source video, or a generated clip
// (from the prompt alone or with frames, references and driving audio).
export function renderRequestedVideo(request: VideoRenderRequest, path: string): Promise<void> {
  const source = request.materials?.source;
  if (source?.rework.operation === "edit") return renderEditedVideo(request, source.media, source.rework.audioSetting, path);
  if (source?.rework.operation === "extend") return renderExtendedVideo(request, source.media, source.rework.direction, path);
  return renderVideo(request, path);
}
