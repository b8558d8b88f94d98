import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { audioOf, encodeArgs, FilterGraph, FPS, promptLook, toneOrSilence, withTiles, withWatermark } from "./clip-layers.js";
import type { EditAudioSetting } from "../vendors/video-model.js";
import type { VideoRenderRequest } from "./video-render.js";
import type { LocalMedia } from "./video-materials.js";

// The emulator's video edit: the source video itself, fitted to the frame, with its colours turned round the
// hue wheel by an angle the instruction picks, and image references as tiles. It runs for the requested length:
// a shorter source holds its last frame, a longer one is cut. With `audio_setting: origin` the source's own audio
// is the soundtrack; otherwise a model that makes sound puts the instruction's tone there, a silent one nothing.

export async function renderEditedVideo(request: VideoRenderRequest, source: LocalMedia, audioSetting: EditAudioSetting, path: string): Promise<void> {
  const { width, height, durationSeconds: seconds } = request;
  const look = promptLook(request.prompt, request.seed);
  const graph = new FilterGraph();
  const input = graph.input("-i", source.path);
  const edited = graph.add(
    [`${input}:v`],
    `fps=${FPS},scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1,` +
      `hue=h=${look.hueDegrees},tpad=stop_mode=clone:stop_duration=${seconds},trim=duration=${seconds},setpts=PTS-STARTPTS`,
  );
  const pictures = (request.materials?.references ?? []).filter((r) => r.kind !== "audio").map((r) => r.media);
  const video = withWatermark(graph, withTiles(graph, edited, pictures, { width, height }), request.watermark);
  let audio: string | undefined;
  if (audioSetting === "origin" && source.hasAudio) audio = audioOf(graph, source, seconds);
  else if (request.withAudio) audio = toneOrSilence(graph, look, seconds);
  await runFfmpeg(encodeArgs(graph, video, audio, seconds, request.container, path));
}
