import { createHash, type Hash } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

// Media on its way in (a download, an upload, a data URI, a stored artifact) is written to a local file as it
// arrives, hashed and measured on the way, and decoded from that file: a worker holds a few buffers of a media
// file at a time, never the whole of it.
export interface Spooled {
  path: string;
  size: number;
  sha256: string;
  // The first bytes, enough to sniff the type from.
  head: Buffer;
}

const HEAD_BYTES = 64;

export class SpoolTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
    this.name = "SpoolTooLarge";
  }
}

// A writable that spools into `path`; `spooled()` describes the file once the writable has finished.
export class SpoolWriter extends Writable {
  private readonly file: WriteStream;
  private readonly hash: Hash = createHash("sha256");
  private size = 0;
  private head = Buffer.alloc(0);

  constructor(
    readonly path: string,
    private readonly maxBytes = Number.MAX_SAFE_INTEGER,
  ) {
    super();
    this.file = createWriteStream(path);
    this.file.on("error", (error) => this.destroy(error));
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return callback(new SpoolTooLarge(this.maxBytes));
    this.hash.update(chunk);
    if (this.head.length < HEAD_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
    if (this.file.write(chunk)) callback();
    else this.file.once("drain", () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.file.end(() => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.file.destroy();
    callback(error);
  }

  spooled(): Spooled {
    return { path: this.path, size: this.size, sha256: this.hash.digest("hex"), head: this.head };
  }
}

export async function spoolStream(source: Readable, path: string, maxBytes?: number): Promise<Spooled> {
  const writer = new SpoolWriter(path, maxBytes);
  await pipeline(source, writer);
  return writer.spooled();
}

export async function spoolBytes(bytes: Buffer, path: string): Promise<Spooled> {
  const writer = new SpoolWriter(path);
  await new Promise<void>((resolve, reject) => {
    writer.on("error", reject);
    writer.end(bytes, resolve);
  });
  return writer.spooled();
}

// A file made in a spool directory by one piece of work and handed to another (an adapter's assembled output, to
// the worker that stores it): whoever holds it removes it, with its directory, by `dispose`.
export interface HandedFile {
  path: string;
  dispose(): Promise<void>;
}

// A private directory for one piece of work's files, removed with everything in it by `dispose`.
export async function spoolDirectory(): Promise<{ file(name: string): string; dispose(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), "svc-media-"));
  return {
    file: (name) => join(directory, name),
    dispose: () => rm(directory, { recursive: true, force: true }),
  };
}
