import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { MediaProbeError, probeMedia } from "../../core/media/probe.js";
import { sniffMediaType } from "../../core/media/sniff.js";
import { downloadedInputProblem, type VendorInputBounds } from "./input-limits.js";

// Input images as an emulated vendor sees them: downloaded from the URL the service handed over (a signed URL of
// the service's own artifacts), decoded, and turned into raw RGB at whatever size the model works at.

const DOWNLOAD_TIMEOUT_MS = 30_000;

export interface InputPicture {
  bytes: Buffer;
  width: number;
  height: number;
  // The codec ffprobe names (png, mjpeg, webp, gif).
  codec: string;
  // As the service names formats when it sniffs them (png, jpeg, webp, gif).
  format: string;
}

// A download or decoding failure, worded for the vendor's own error answer.
export class InputPictureError extends Error {}

export async function downloadPicture(url: string): Promise<InputPicture> {
  let bytes: Buffer;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
    if (!response.ok) throw new InputPictureError(`downloading ${url} answered HTTP ${response.status}`);
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof InputPictureError) throw error;
    throw new InputPictureError(`could not download ${url}: ${(error as Error).message}`);
  }
  try {
    const probe = await probeMedia(bytes);
    if (!probe.width || !probe.height) throw new InputPictureError(`${url} is not a picture`);
    return { bytes, width: probe.width, height: probe.height, codec: probe.codec ?? "unknown", format: sniffMediaType(bytes)?.format ?? "unknown" };
  } catch (error) {
    if (error instanceof MediaProbeError) throw new InputPictureError(`${url} is not a decodable image`);
    throw error;
  }
}

export function downloadPictures(urls: readonly string[]): Promise<InputPicture[]> {
  return Promise.all(urls.map(downloadPicture));
}

// The picture stretched to width × height as rgb24, row by row. Stretching (rather than cropping) keeps
// normalized coordinates meaning the same place on the input and on the canvas.
export function decodeRgb(picture: InputPicture, width: number, height: number, scaling: "bilinear" | "neighbor" = "bilinear"): Promise<Buffer> {
  return runFfmpeg(
    ["-i", "pipe:0", "-frames:v", "1", "-vf", `scale=${width}:${height}:flags=${scaling}`, "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
    picture.bytes,
  );
}

export function encodePng(rgb: Buffer, width: number, height: number): Promise<Buffer> {
  return runFfmpeg(
    ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${width}x${height}`, "-i", "pipe:0", "-frames:v", "1", "-c:v", "png", "-f", "image2pipe", "pipe:1"],
    rgb,
  );
}

// The first input picture the vendor refuses by its published bounds, worded with its position; null when none.
export function picturesProblem(bounds: VendorInputBounds, pictures: readonly InputPicture[]): string | null {
  for (const [index, picture] of pictures.entries()) {
    const facts = { kind: "image" as const, format: picture.format, byteSize: picture.bytes.length, width: picture.width, height: picture.height, durationSeconds: null, codec: null, frameRate: null };
    const problem = downloadedInputProblem(bounds, facts, false);
    if (problem !== null) return `image ${index + 1}: ${problem}`;
  }
  return null;
}
