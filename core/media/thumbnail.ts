import { runFfmpeg } from "./ffmpeg.js";

// A JPEG no wider or taller than `edge` pixels, for showing a generated image beside its link (MCP image
// content): a few tens of kilobytes whatever the original's size.
export async function imageThumbnail(bytes: Buffer, edge: number): Promise<Buffer> {
  const scale = `scale='min(${edge},iw)':'min(${edge},ih)':force_original_aspect_ratio=decrease`;
  return runFfmpeg(["-i", "pipe:0", "-frames:v", "1", "-vf", scale, "-q:v", "5", "-f", "image2pipe", "-c:v", "mjpeg", "pipe:1"], bytes);
}
