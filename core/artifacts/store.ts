import { createReadStream } from "node:fs";
import { mkdir, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";

// Where artifact bytes live. The filesystem store is the default; an S3-compatible store implements the same
// interface for deployments across machines.
export interface ArtifactStore {
  put(key: string, bytes: Buffer): Promise<void>;
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
}

export class FilesystemArtifactStore implements ArtifactStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!/^[A-Za-z0-9_./-]+$/.test(key) || key.includes("..")) throw new Error(`bad artifact key ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Write then rename so a reader never sees half a file.
    const temporary = `${target}.${process.pid}.partial`;
    await writeFile(temporary, bytes);
    await rename(temporary, target);
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | null> {
    const target = this.pathOf(key);
    try {
      const info = await stat(target);
      return { stream: createReadStream(target), size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }
}
