import { createReadStream } from "node:fs";
import type { FastifyReply } from "fastify";
import type { StoredFile } from "./file-store.js";

// Streams a generated file to whoever holds its URL (vendors hand out signed URLs, so no key is asked for).
// A file scripted by the bad_download fault answers 500 on every attempt, with the family's own error body.
export function sendStoredFile(reply: FastifyReply, file: StoredFile | undefined, errors: { notFound: unknown; broken: unknown }) {
  if (file === undefined) return reply.code(404).send(errors.notFound);
  if (file.failsDownload) return reply.code(500).send(errors.broken);
  return reply.type(file.contentType).header("content-length", file.sizeBytes).send(createReadStream(file.path));
}
