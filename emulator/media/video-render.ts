import { runFfmpeg } from "../../core/media/ffmpeg.js";
import {
  audioOf,
  encodeArgs,
  fitOnto,
  FilterGraph,
  FPS,
  mixed,
  promptLook,
  toneOrSilence,
  withMotion,
  withTiles,
  withWatermark,
  type PromptLook,
} from "./clip-layers.js";
import type { VideoMaterials } from "./video-materials.js";

// The emulator's stand-in for a video generation model: a real H.264 clip (yuv420p, 24 fps) of exactly the
// requested size and length. What it shows follows the request: the prompt picks the colours and the tone, the
// seed the motion of the square, a bar along the bottom fills over the clip's duration, and a watermark box sits
// in the top right corner when the model watermarks. Given materials, it follows them too: a strict first frame
// is the clip's first frame exactly, a last frame its last, references appear as tiles (their audio in the
// soundtrack), and a driving audio track is the soundtrack. Edits and extensions have renderers of their own.

export type VideoContainer = "mp4" | "mov";

export interface VideoRenderRequest {
  width: number;
  height: number;
  durationSeconds: number;
  container: VideoContainer;
  withAudio: boolean;
  watermark: boolean;
  prompt: string;
  seed: number | null;
  materials?: VideoMaterials;
}

// The picture before motion: the prompt's colour, or the frames laid over it. Returns the stream and when the
// generated motion may show (never on a strict frame).
function basePicture(graph: FilterGraph, request: VideoRenderRequest, look: PromptLook): { base: string; motion?: string } {
  const { width, height, durationSeconds: seconds, materials } = request;
  const background = graph.input("-f", "lavfi", "-i", `color=c=${look.background}:s=${width}x${height}:r=${FPS}:d=${seconds}`);
  const frame = { width, height };
  const { firstFrame, lastFrame } = materials ?? {};
  if (lastFrame) {
    // The clip dissolves from the first frame (or the prompt's colour) into the last one, reaching it exactly
    // on the clip's final frame; the motion plays in between.
    const [openingBackground, closingBackground] = graph.addWithOutputs([`${background}:v`], "split=2", 2) as [string, string];
    const opening = firstFrame ? fitOnto(graph, openingBackground, graph.media(firstFrame), frame) : openingBackground;
    const closing = fitOnto(graph, closingBackground, graph.media(lastFrame), frame);
    const lastIndex = Math.round(seconds * FPS) - 1;
    const fading = graph.add([closing], `format=yuva420p,fade=t=in:st=0:d=${lastIndex / FPS}:alpha=1`);
    const base = graph.add([opening, fading], "overlay=shortest=1,format=yuv420p");
    return { base, motion: `between(n,1,${lastIndex - 1})` };
  }
  if (firstFrame) return { base: fitOnto(graph, `${background}:v`, graph.media(firstFrame), frame), motion: "gte(n,1)" };
  return { base: `${background}:v` };
}

export async function renderVideo(request: VideoRenderRequest, path: string): Promise<void> {
  const { width, height, durationSeconds: seconds, materials } = request;
  const look = promptLook(request.prompt, request.seed);
  const frame = { width, height };
  const graph = new FilterGraph();
  const { base, motion } = basePicture(graph, request, look);
  const moving = withMotion(graph, base, look, frame, seconds, motion);
  const pictures = (materials?.references ?? []).filter((r) => r.kind !== "audio").map((r) => r.media);
  const video = withWatermark(graph, withTiles(graph, moving, pictures, frame), request.watermark);
  await runFfmpeg(encodeArgs(graph, video, soundtrack(graph, request, look), seconds, request.container, path));
}

// A driving audio track is the soundtrack; otherwise reference audio and voices, with the prompt's tone when the
// model makes sound; otherwise the tone alone, or silence (no audio stream) for a silent clip.
function soundtrack(graph: FilterGraph, request: VideoRenderRequest, look: PromptLook): string | undefined {
  const { durationSeconds: seconds, materials } = request;
  if (materials?.drivingAudio) return audioOf(graph, materials.drivingAudio, seconds);
  const heard = (materials?.references ?? []).flatMap((r) => [...(r.kind === "audio" ? [r.media] : []), ...(r.voice ? [r.voice] : [])]);
  const parts = heard.map((media) => audioOf(graph, media, seconds));
  if (request.withAudio) parts.push(toneOrSilence(graph, look, seconds));
  return mixed(graph, parts);
}

// The clip's final frame as a PNG: the tail of the clip is decoded and every frame overwrites the one before.
export async function renderLastFrame(videoPath: string, path: string): Promise<void> {
  await runFfmpeg(["-sseof", "-1", "-i", videoPath, "-an", "-update", "1", "-c:v", "png", "-f", "image2", "-y", path]);
}
