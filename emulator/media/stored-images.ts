import { writeFile } from "node:fs/promises";
import type { StoredFile } from "../file-store.js";
import type { EmulatorContext } from "../vendor-family.js";
import { renderImageSet, type ImageSetRequest } from "./image-render.js";

export const PNG_CONTENT_TYPE = "image/png";

// Keeps one rendered picture as a downloadable file of the emulator; the bad_download fault marks it so that
// every download of it fails.
export async function storePicture(context: EmulatorContext, picture: Buffer, failsDownload: boolean): Promise<StoredFile> {
  const { file } = await context.files.save((path) => writeFile(path, picture), { contentType: PNG_CONTENT_TYPE, failsDownload });
  return file;
}

export async function storeImageSet(context: EmulatorContext, request: ImageSetRequest, failsDownload: boolean): Promise<StoredFile[]> {
  const pictures = await renderImageSet(request);
  return Promise.all(pictures.map((picture) => storePicture(context, picture, failsDownload)));
}
