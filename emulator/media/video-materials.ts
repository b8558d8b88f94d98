import { writeFile } from "node:fs/promises";
import type { EditAudioSetting } from "../vendors/video-model.js";
import { MediaProbeError, probeMedia } from "../../core/media/probe.js";
import { sniffMediaType } from "../../core/media/sniff.js";
import type { FileStore } from "../file-store.js";
import type { DownloadedFacts } from "./input-limits.js";

// What an emulated video vendor is given to work from besides the prompt (frames, references, driving audio, a
// video to edit or extend), in neutral terms: each family reads these from its own wire fields. The vendor
// downloads every input from the URL it was handed (a signed URL of the service's own artifacts) and decodes it,
// as the real vendors do, so what it makes can follow what the inputs really are.

export type MaterialKind = "image" | "video" | "audio";

export type Rework = { operation: "edit"; audioSetting: EditAudioSetting } | { operation: "extend"; direction: "before" | "after" };

export interface MaterialUrls {
  firstFrame?: string;
  lastFrame?: string;
  drivingAudio?: string;
  references: { kind: MaterialKind; url: string; voiceUrl?: string }[];
  source?: { url: string; rework: Rework };
}

// One downloaded input, kept on disk for the renderer.
export interface LocalMedia {
  path: string;
  kind: MaterialKind;
  width: number | null;
  height: number | null;
  durationSeconds: number;
  hasAudio: boolean;
  // What the vendor's published bounds are checked against (emulator/media/input-limits.ts).
  format: string;
  byteSize: number;
  codec: string | null;
  frameRate: number | null;
}

export interface VideoMaterials {
  firstFrame?: LocalMedia;
  lastFrame?: LocalMedia;
  drivingAudio?: LocalMedia;
  references: { kind: MaterialKind; media: LocalMedia; voice?: LocalMedia }[];
  source?: { media: LocalMedia; rework: Rework };
}

// Why an input could not be used, in words the vendor puts in its refusal.
export class MaterialError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MaterialError";
  }
}

const DOWNLOAD_TIMEOUT_MS = 30_000;

async function download(url: string): Promise<Buffer> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
    if (!response.ok) throw new MaterialError(`downloading ${url} answered HTTP ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof MaterialError) throw error;
    throw new MaterialError(`could not download ${url}: ${(error as Error).message}`);
  }
}

// Downloads one input, checks it is of the expected kind and decodes it.
export async function fetchMedia(files: FileStore, url: string, expected: MaterialKind): Promise<LocalMedia> {
  const bytes = await download(url);
  const sniffed = sniffMediaType(bytes);
  if (sniffed?.kind !== expected) throw new MaterialError(`${url} is not ${expected === "audio" ? "audio" : `an ${expected}`}`);
  let probe;
  try {
    probe = await probeMedia(bytes);
  } catch (error) {
    if (error instanceof MediaProbeError) throw new MaterialError(`${url} could not be decoded`);
    throw error;
  }
  const { file } = await files.save((path) => writeFile(path, bytes), { contentType: sniffed.contentType, failsDownload: false });
  return {
    path: file.path,
    kind: expected,
    width: probe.width,
    height: probe.height,
    durationSeconds: probe.durationSeconds,
    hasAudio: probe.hasAudio,
    format: sniffed.format,
    byteSize: bytes.length,
    codec: probe.codec,
    frameRate: probe.frameRate,
  };
}

// The downloaded inputs as the published bounds see them: references apart from every other input.
export function downloadedInputs(materials: VideoMaterials): { media: DownloadedFacts; reference: boolean }[] {
  const plain = [materials.firstFrame, materials.lastFrame, materials.drivingAudio, materials.source?.media, ...materials.references.map((r) => r.voice)];
  return [
    ...plain.flatMap((media) => (media ? [{ media: downloadedFacts(media), reference: false }] : [])),
    ...materials.references.map((r) => ({ media: downloadedFacts(r.media), reference: true })),
  ];
}

function downloadedFacts(media: LocalMedia): DownloadedFacts {
  return {
    kind: media.kind,
    format: media.format,
    byteSize: media.byteSize,
    width: media.width,
    height: media.height,
    durationSeconds: media.kind === "image" || media.durationSeconds === 0 ? null : media.durationSeconds,
    codec: media.codec,
    frameRate: media.frameRate,
  };
}

// Downloads and decodes every input; the first one that cannot be used refuses the whole request.
export async function fetchMaterials(files: FileStore, urls: MaterialUrls): Promise<VideoMaterials> {
  const optional = (url: string | undefined, kind: MaterialKind) => (url === undefined ? undefined : fetchMedia(files, url, kind));
  const [firstFrame, lastFrame, drivingAudio, source, references] = await Promise.all([
    optional(urls.firstFrame, "image"),
    optional(urls.lastFrame, "image"),
    optional(urls.drivingAudio, "audio"),
    optional(urls.source?.url, "video"),
    Promise.all(
      urls.references.map(async (r) => ({
        kind: r.kind,
        media: await fetchMedia(files, r.url, r.kind),
        voice: await optional(r.voiceUrl, "audio"),
      })),
    ),
  ]);
  return {
    ...(firstFrame ? { firstFrame } : {}),
    ...(lastFrame ? { lastFrame } : {}),
    ...(drivingAudio ? { drivingAudio } : {}),
    references: references.map((r) => ({ kind: r.kind, media: r.media, ...(r.voice ? { voice: r.voice } : {}) })),
    ...(source && urls.source ? { source: { media: source, rework: urls.source.rework } } : {}),
  };
}

// The picture whose ratio an output may follow: the video being reworked, else the strict first (or last) frame.
export function sourcePicture(materials: VideoMaterials): LocalMedia | undefined {
  const picture = materials.source?.media ?? materials.firstFrame ?? materials.lastFrame;
  return picture?.width && picture.height ? picture : undefined;
}
