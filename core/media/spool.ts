import { createHash, type Hash } from "node:crypto";
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
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

// What spooling learns of bytes as they pass: their size (held to `maxBytes`), their hash and their first bytes.
class SpoolMeasure {
  private readonly hash: Hash = createHash("sha256");
  private size = 0;
  private head = Buffer.alloc(0);

  constructor(private readonly maxBytes: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) throw new SpoolTooLarge(this.maxBytes);
    this.hash.update(chunk);
    if (this.head.length < HEAD_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
  }

  of(path: string): Spooled {
    return { path, size: this.size, sha256: this.hash.digest("hex"), head: this.head };
  }
}

// A writable that spools into `path`; `spooled()` describes the file once the writable has finished.
export class SpoolWriter extends Writable {
  private readonly file: WriteStream;
  private readonly measure: SpoolMeasure;

  constructor(
    readonly path: string,
    maxBytes = Number.MAX_SAFE_INTEGER,
  ) {
    super();
    this.measure = new SpoolMeasure(maxBytes);
    this.file = createWriteStream(path);
    this.file.on("error", (error) => this.destroy(error));
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    try {
      this.measure.add(chunk);
    } catch (error) {
      return callback(error as Error);
    }
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
    return this.measure.of(this.path);
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

// A file already on this machine (one an adapter made and handed over), described as spooling it would have been:
// read once for its size, hash and first bytes, and left where it is rather than copied.
export async function spooledFile(path: string, maxBytes = Number.MAX_SAFE_INTEGER): Promise<Spooled> {
  const measure = new SpoolMeasure(maxBytes);
  for await (const chunk of createReadStream(path)) measure.add(chunk as Buffer);
  return measure.of(path);
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
