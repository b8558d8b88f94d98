import { writeFile } from "node:fs/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorContext } from "../vendor-family.js";
import { BASE, invalidParams, traceId } from "./vendor-a-calls.js";

// vendorA's file upload (docs/providers/vendorA.md, "Voice clone"): `POST /v1/files/upload`, multipart/form-data
// with `purpose` and `file`, answering the file's numeric `file_id`. A voice clone then names its sample by that id.

const FAMILY = "vendorA";
const PURPOSES = new Set(["voice_clone", "prompt_audio"]);

interface UploadedFile {
  storeId: string;
  purpose: string;
}

// Uploaded files by the vendor's numeric id; the bytes live in the emulator's file store.
export class UploadedFiles {
  private readonly files = new Map<number, UploadedFile>();
  private nextId = 300_000_000_001;

  add(file: UploadedFile): number {
    const id = this.nextId++;
    this.files.set(id, file);
    return id;
  }

  get(fileId: number): UploadedFile | undefined {
    return this.files.get(fileId);
  }
}

interface Part {
  name: string;
  filename: string | null;
  body: Buffer;
}

// Just enough of RFC 7578 for the vendor's two fields: parts split at the boundary, their names from
// Content-Disposition.
function multipartParts(body: Buffer, contentType: string): Part[] | null {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return null;
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const chunk = body.subarray(start + delimiter.length + 2, next - 2);
    const headerEnd = chunk.indexOf("\r\n\r\n");
    if (headerEnd !== -1) {
      const headers = chunk.subarray(0, headerEnd).toString("utf8");
      const name = /name="([^"]*)"/i.exec(headers)?.[1];
      const filename = /filename="([^"]*)"/i.exec(headers)?.[1] ?? null;
      if (name !== undefined) parts.push({ name, filename, body: chunk.subarray(headerEnd + 4) });
    }
    start = next;
  }
  return parts;
}

export function registerVendorAUploadRoutes(app: FastifyInstance, context: EmulatorContext, uploads: UploadedFiles): void {
  app.addContentTypeParser("multipart/form-data", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  app.post("/v1/files/upload", (request, reply) => upload(request, reply, context, uploads));
}

async function upload(request: FastifyRequest, reply: FastifyReply, context: EmulatorContext, uploads: UploadedFiles) {
  context.requests.record({ family: FAMILY, method: request.method, path: request.url.split("?")[0] ?? request.url, model: null, at: new Date().toISOString() });
  if (!/^Bearer\s+\S+/i.test(request.headers.authorization ?? "")) return reply.code(401).send({ base_resp: BASE.authenticationFailed });
  const parts = Buffer.isBuffer(request.body) ? multipartParts(request.body, request.headers["content-type"] ?? "") : null;
  if (parts === null) return reply.send({ base_resp: invalidParams("the body must be multipart/form-data") });
  const purpose = parts.find((part) => part.name === "purpose")?.body.toString("utf8");
  const file = parts.find((part) => part.name === "file" && part.filename !== null);
  if (purpose === undefined || !PURPOSES.has(purpose)) return reply.send({ base_resp: invalidParams("purpose must be voice_clone or prompt_audio") });
  if (file === undefined || file.body.length === 0) return reply.send({ base_resp: invalidParams("file is required") });
  const { file: stored } = await context.files.save((path) => writeFile(path, file.body), {
    contentType: "application/octet-stream",
    failsDownload: false,
  });
  const fileId = uploads.add({ storeId: stored.fileId, purpose });
  return reply.send({
    file: { file_id: fileId, bytes: stored.sizeBytes, created_at: Math.floor(Date.now() / 1000), filename: file.filename, purpose },
    base_resp: BASE.success,
    trace_id: traceId(),
  });
}
