import { createReadStream } from "node:fs";
import { copyFile, mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";

// An inclusive byte range of a stored object, as HTTP's Range header names one.
export interface ByteRange {
  start: number;
  end: number;
}

export interface OpenedArtifact {
  stream: Readable;
  // The whole object's size, whatever range was opened.
  size: number;
}

// Where artifact bytes live. The filesystem store is the default; an S3-compatible store implements the same
// interface for deployments across machines. Large media goes in with putFile (streamed from a local file) and
// comes out as a stream, whole or a byte range, so neither end holds a file in memory.
export interface ArtifactStore {
  put(key: string, bytes: Buffer): Promise<void>;
  putFile(key: string, file: string, facts: { size: number; sha256: string }): Promise<void>;
  open(key: string, range?: ByteRange): Promise<OpenedArtifact | null>;
  delete(key: string): Promise<void>;
}

export class FilesystemArtifactStore implements ArtifactStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!/^[A-Za-z0-9_./-]+$/.test(key) || key.includes("..")) throw new Error(`bad artifact key ${key}`);
    return path.join(this.root, key);
  }

  // Write then rename so a reader never sees half a file.
  private async placed(key: string, write: (temporary: string) => Promise<void>): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.partial`;
    await write(temporary);
    await rename(temporary, target);
  }

  put(key: string, bytes: Buffer): Promise<void> {
    return this.placed(key, (temporary) => writeFile(temporary, bytes));
  }

  putFile(key: string, file: string): Promise<void> {
    return this.placed(key, (temporary) => copyFile(file, temporary));
  }

  async open(key: string, range?: ByteRange): Promise<OpenedArtifact | null> {
    const target = this.pathOf(key);
    try {
      const info = await stat(target);
      return { stream: createReadStream(target, range ? { start: range.start, end: range.end } : {}), size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
