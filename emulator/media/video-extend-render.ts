import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { AUDIO_FORMAT, encodeArgs, FilterGraph, FPS, promptLook, toneOrSilence, withMotion, withWatermark } from "./clip-layers.js";
import { renderLastFrame, type VideoRenderRequest } from "./video-render.js";
import type { LocalMedia } from "./video-materials.js";

// The emulator's video extension: the source, whole and untouched but for fitting it to the frame, joined to a
// new part so that together they last exactly the requested duration. The new part grows out of the source's
// boundary frame (its last frame when extending after, its first when extending before), washed towards the
// prompt's colour, with the generated motion over it. The source keeps its own audio; the new part has the
// prompt's tone when the model makes sound, silence otherwise.

const BOUNDARY_WEIGHT = 0.5;

async function boundaryFrame(source: LocalMedia, direction: "before" | "after", path: string): Promise<void> {
  if (direction === "after") return renderLastFrame(source.path, path);
  await runFfmpeg(["-i", source.path, "-frames:v", "1", "-an", "-c:v", "png", "-f", "image2", "-y", path]);
}

export async function renderExtendedVideo(request: VideoRenderRequest, source: LocalMedia, direction: "before" | "after", path: string): Promise<void> {
  const { width, height, durationSeconds: seconds } = request;
  const frame = { width, height };
  const look = promptLook(request.prompt, request.seed);
  const totalFrames = Math.round(seconds * FPS);
  const sourceFrames = Math.min(totalFrames - 1, Math.round(source.durationSeconds * FPS));
  const sourceSeconds = sourceFrames / FPS;
  const newSeconds = (totalFrames - sourceFrames) / FPS;
  const fit = `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p`;
  const directory = await mkdtemp(join(tmpdir(), "extend-"));
  try {
    const framePath = join(directory, "boundary.png");
    await boundaryFrame(source, direction, framePath);
    const graph = new FilterGraph();
    const input = graph.input("-i", source.path);
    const kept = graph.add([`${input}:v`], `fps=${FPS},${fit},tpad=stop_mode=clone:stop_duration=1,trim=end_frame=${sourceFrames},setpts=PTS-STARTPTS`);
    const still = graph.input("-loop", "1", "-framerate", String(FPS), "-t", String(newSeconds), "-i", framePath);
    const wash = graph.input("-f", "lavfi", "-i", `color=c=${look.background}:s=${width}x${height}:r=${FPS}:d=${newSeconds}`);
    const fitted = graph.add([`${still}:v`], fit);
    const washed = graph.add([fitted, `${wash}:v`], `blend=all_mode=normal:all_opacity=${BOUNDARY_WEIGHT},setpts=PTS-STARTPTS`);
    const grown = withMotion(graph, washed, look, frame, newSeconds);
    const withSound = source.hasAudio || request.withAudio;
    const keptAudio = withSound ? sourceAudio(graph, source, sourceSeconds) : undefined;
    const grownAudio = withSound ? toneOrSilence(graph, request.withAudio ? look : null, newSeconds) : undefined;
    const parts = direction === "after" ? [[kept, keptAudio], [grown, grownAudio]] : [[grown, grownAudio], [kept, keptAudio]];
    const [video, audio] = graph.addWithOutputs(
      parts.flat().filter((label): label is string => label !== undefined),
      `concat=n=2:v=1:a=${withSound ? 1 : 0}`,
      withSound ? 2 : 1,
    ) as [string, string | undefined];
    await runFfmpeg(encodeArgs(graph, withWatermark(graph, video, request.watermark), audio, seconds, request.container, path));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

function sourceAudio(graph: FilterGraph, source: LocalMedia, seconds: number): string {
  if (!source.hasAudio) return toneOrSilence(graph, null, seconds);
  const index = graph.input("-i", source.path);
  return graph.add([`${index}:a`], `${AUDIO_FORMAT},apad,atrim=end=${seconds},asetpts=PTS-STARTPTS`);
}
